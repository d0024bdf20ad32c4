import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds one of the browser apps (`consumer`, `console`: <app>/vite.config.ts -> dist/<app>) when it is missing or
 * older than its sources. Test files run in parallel processes, so one builds under a lock directory while the
 * others wait; the build runs as a child process so this one keeps answering the test runner.
 */
export async function ensureViteBuild(app: string, root = process.cwd()): Promise<void> {
  const index = path.join(root, "dist", app, "index.html");
  const lock = path.join(root, "dist", `.${app}-build.lock`);
  const isFresh = () => fs.existsSync(index) && fs.statSync(index).mtimeMs >= newestSource(path.join(root, app));
  if (isFresh()) return;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // another process is building; a lock older than 3 minutes is from a crashed run
      if (Date.now() - fs.statSync(lock).mtimeMs > 180_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      if (isFresh()) return;
    }
  }
  try {
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build
    const env = { ...process.env, NODE_ENV: "production" };
    if (!isFresh()) await run(path.join(root, "node_modules/.bin/vite"), ["build", "--config", `${app}/vite.config.ts`, "--logLevel", "warn"], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
