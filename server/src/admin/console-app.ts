import fs from "node:fs";
import path from "node:path";
import express, { type Router } from "express";
import { sendError } from "../http/envelope.ts";

/**
 * The built console (dist/console) at /console. Hashed assets are cached for a year; every other path
 * answers index.html so react-admin's router can handle deep links (/console/users/3/show).
 */
export function consoleApp(dir: string): Router {
  const router = express.Router();
  const index = path.join(dir, "index.html");
  router.use("/assets", express.static(path.join(dir, "assets"), { immutable: true, maxAge: "365d", fallthrough: false }));
  router.use(express.static(dir, { index: false }));
  router.get("/{*path}", (_req, res) => {
    if (!fs.existsSync(index)) return sendError(res, 404, "The console is not built: run npm run build:console");
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(index);
  });
  return router;
}
