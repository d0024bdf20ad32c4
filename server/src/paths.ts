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

/** The shipped ComfyUI workflows and their bindings (decision 082). */
export const WORKFLOWS_DIR = path.join(PROJECT_DIR, "server", "workflows");

/** Every model slot the shipped bindings name, sorted: the names COMFYUI_MODELS may set. */
export function workflowModelSlots(dir = WORKFLOWS_DIR): string[] {
  const slots = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".binding.json"))
    .flatMap((f) => Object.keys((JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { models?: object }).models ?? {}));
  return [...new Set(slots)].sort();
}
