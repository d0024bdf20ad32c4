import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { isBuildFresh } from "../../scripts/build.ts";

const run = promisify(execFile);

/**
 * Builds one of the browser apps (`consumer`, `console` -> dist/<app>) when any file it was built from changed
 * (scripts/build.ts decides, as for `npm start`). Test files run in parallel processes, so one builds under a lock
 * directory while the others wait; the build runs as a child process so this one keeps answering the test runner.
 */
export async function ensureViteBuild(app: "consumer" | "console", root = process.cwd()): Promise<void> {
  const lock = path.join(root, "dist", `.${app}-build.lock`);
  if (await isBuildFresh(app)) return;
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // another process is building; a lock older than 3 minutes is from a crashed run
      if (Date.now() - fs.statSync(lock).mtimeMs > 180_000) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      if (await isBuildFresh(app)) return;
    }
  }
  try {
    // vitest sets NODE_ENV=test, which would make Vite bundle React's development build
    const env = { ...process.env, NODE_ENV: "production" };
    await run(path.join(root, "node_modules/.bin/tsx"), ["scripts/build.ts", app], { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
