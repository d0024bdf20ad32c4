import fs from "node:fs/promises";
import path from "node:path";
import type { Express } from "express";
import { builtAppFiles } from "./static-files.ts";

/** What a link pasted in a messenger previews: the page's own title, description and Open Graph image. */
export interface SharePreview {
  title: string;
  description: string;
  image: string | null;
}

const escapeHtml = (v: string) => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** index.html with the preview's title and meta tags in its head (every value escaped). */
function withPreview(html: string, p: SharePreview, url: string): string {
  const description = p.description.length > 200 ? `${p.description.slice(0, 197)}…` : p.description;
  const tags = [
    `<title>${escapeHtml(p.title)} · Reverie</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<meta property="og:type" content="profile">`,
    `<meta property="og:title" content="${escapeHtml(p.title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${escapeHtml(url)}">`,
    ...(p.image ? [`<meta property="og:image" content="${escapeHtml(p.image)}">`, `<meta name="twitter:card" content="summary_large_image">`] : []),
  ].join("");
  return html.replace(/<title>[^<]*<\/title>/, "").replace("</head>", `${tags}</head>`);
}

/** Paths the single-page app never answers: the API, the staff API and the console keep their own 404s. */
const NOT_THE_APP = /^\/(api|admin|console)(\/|$)/i;

/**
 * Serves the built consumer app (dist/consumer) at `/`, each file compressed as the build left it (static-files.ts).
 * Any other GET that prefers HTML gets index.html, and the app's router decides (its own not-found page
 * included). When the app has not been built the fallback steps aside and the API's 404 answers.
 */
export function serveConsumerApp(app: Express, dir: string, share?: { previewFor(path: string): Promise<SharePreview | null>; publicUrl: string }): void {
  const root = path.resolve(dir);
  const files = builtAppFiles(root);
  app.use(files.serve);
  app.get(/.*/, (req, res, next) => {
    // Only a browser navigation (HTML preferred over JSON) gets the app; clients without an Accept header get the API's 404.
    if (NOT_THE_APP.test(req.path) || req.accepts(["json", "html"]) !== "html") return next();
    if (!share) return files.sendIndex(req, res, next);
    // a page that has a preview (a creator's home link) is answered with its meta tags, so shared links show it
    void share
      .previewFor(req.path)
      .then(async (preview) => {
        if (!preview) return files.sendIndex(req, res, next);
        const html = await fs.readFile(path.join(root, "index.html"), "utf8");
        res.setHeader("Cache-Control", "no-cache");
        res.type("html").send(withPreview(html, preview, new URL(req.path, share.publicUrl).href));
      })
      .catch(next);
  });
}
