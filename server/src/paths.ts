import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project folder: the nearest folder above this module that holds package.json. Found by looking, not by a fixed
 * number of `..`, because this code runs both from server/src (tests, `npm run dev`) and bundled into dist/server
 * (`npm start`, docs/decisions/009).
 */
export const PROJECT_DIR = findProjectDir(path.dirname(fileURLToPath(import.meta.url)));

function findProjectDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (dir === path.dirname(dir)) throw new Error(`no package.json above ${from}`);
  }
}
