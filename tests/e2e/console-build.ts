import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";

/**
 * Builds dist/console when it is missing or older than the console sources (20-60 s). The build runs as a child
 * process without blocking this one, so the test runner keeps hearing from the worker meanwhile.
 */
export async function ensureConsoleBuilt(root = process.cwd()): Promise<void> {
  const index = path.join(root, "dist/console/index.html");
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const newest = Math.max(...listFiles(path.join(root, "console")).map((f) => fs.statSync(f).mtimeMs));
  if (built > newest) return;
  await promisify(execFile)("npx", ["vite", "build", "--config", "console/vite.config.ts", "--logLevel", "warn"], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
