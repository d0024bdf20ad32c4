import { ensureViteBuild } from "./vite-build.ts";

/** Builds dist/console when any file it was built from changed (20-60 s). */
export function ensureConsoleBuilt(root = process.cwd()): Promise<void> {
  return ensureViteBuild("console", root);
}
