import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** Builds dist/console once when it is missing or older than the console sources (about 20 s). */
export function ensureConsoleBuilt(root = process.cwd()): void {
  const index = path.join(root, "dist/console/index.html");
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const newest = Math.max(...listFiles(path.join(root, "console")).map((f) => fs.statSync(f).mtimeMs));
  if (built > newest) return;
  execFileSync("npx", ["vite", "build", "--config", "console/vite.config.ts", "--logLevel", "warn"], { cwd: root, stdio: "inherit" });
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
