import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { PROJECT_DIR } from "./src/paths.ts";

export const SERVER_DIST_DIR = path.join(PROJECT_DIR, "dist", "server");

/**
 * Bundles the API server, the worker and the spreadsheet reader's thread into dist/server (packages stay in node_modules). Loading one bundle instead of
 * ~150 TypeScript files through a loader halves start-up (docs/decisions/009). About a tenth of a second.
 */
export async function buildServer(): Promise<string[]> {
  // chunk names carry content hashes: without this, every build would leave the previous one's files behind
  await fs.rm(SERVER_DIST_DIR, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: PROJECT_DIR,
    metafile: true,
    // the spreadsheet reader's thread is an entry of its own: imports.workbook.ts starts it by this path (docs/decisions/371)
    entryPoints: [
      path.join(PROJECT_DIR, "server/src/main.ts"),
      path.join(PROJECT_DIR, "server/src/worker/main.ts"),
      path.join(PROJECT_DIR, "server/src/domains/imports/imports.sheet-worker.ts"),
    ],
    outbase: path.join(PROJECT_DIR, "server/src"),
    outdir: SERVER_DIST_DIR,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: "warning",
  });
  // the project's own source files the bundle was made from (packages are covered by the lock file)
  return Object.keys(result.metafile.inputs).filter((f) => !f.includes("node_modules/"));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildServer();
