import { ensureViteBuild } from "./vite-build.ts";

/** Builds dist/console when it is missing or older than the console sources (20-60 s). */
export function ensureConsoleBuilt(root = process.cwd()): Promise<void> {
  return ensureViteBuild("console", root);
}
