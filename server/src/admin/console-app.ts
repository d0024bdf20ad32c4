import fs from "node:fs";
import path from "node:path";
import express, { type Router } from "express";
import { sendError } from "../http/envelope.ts";
import { builtAppFiles } from "../http/static-files.ts";

/**
 * The built console (dist/console) at /console, each file compressed as the build left it (static-files.ts). Every
 * other path answers index.html so react-admin's router can handle deep links (/console/users/3/show); a missing
 * asset is a 404, not the app.
 */
export function consoleApp(dir: string): Router {
  const router = express.Router();
  const files = builtAppFiles(dir);
  router.use(files.serve);
  router.use("/assets", (_req, res) => sendError(res, 404, "No such console asset"));
  router.get("/{*path}", (req, res, next) => {
    if (!fs.existsSync(path.join(dir, "index.html"))) return sendError(res, 404, "The console is not built: run npm run build:console");
    files.sendIndex(req, res, next);
  });
  return router;
}
