import path from "node:path";
import express, { type Express } from "express";

/** Paths the single-page app never answers: the API, the staff API and the console keep their own 404s. */
const NOT_THE_APP = /^\/(api|admin|console)(\/|$)/i;

/**
 * Serves the built consumer app (dist/consumer) at `/`. Hashed assets are cached for a year; index.html,
 * the service worker and the manifest are revalidated on every load so a deploy reaches people at once.
 * Any other GET that prefers HTML gets index.html, and the app's router decides (its own not-found page
 * included). When the app has not been built the fallback steps aside and the API's 404 answers.
 */
export function serveConsumerApp(app: Express, dir: string): void {
  const root = path.resolve(dir);
  app.use(
    express.static(root, {
      index: false,
      setHeaders(res, file) {
        res.setHeader("Cache-Control", file.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    }),
  );
  app.get(/.*/, (req, res, next) => {
    // Only a browser navigation (HTML preferred over JSON) gets the app; clients without an Accept header get the API's 404.
    if (NOT_THE_APP.test(req.path) || req.accepts(["json", "html"]) !== "html") return next();
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(path.join(root, "index.html"), (err) => {
      if (err && !res.headersSent) next();
    });
  });
}
