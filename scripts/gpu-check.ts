import { config } from "../server/src/config.ts";
import path from "node:path";
import { embeddedUrl } from "../server/src/db/embedded.ts";
import { checkGpuServer, formatGpuReport } from "../server/src/domains/generation/engines/gpu-check.ts";
import { announceGpuCheck } from "../server/src/domains/generation/engines/gpu-rechecks.ts";
import { loadWorkflows } from "../server/src/domains/generation/engines/workflows.ts";

/**
 * `npm run gpu:check -- <comfyui url> [...]` (default: COMFYUI_URLS): per workflow, whether the server can run it, or
 * the nodes and model files it lacks with where to get each (issue 34). Exits 1 when a server runs none of them.
 * Running instances (DATABASE_URL, or the embedded database `npm start` runs) check the same servers again at once, so
 * what they offer follows this check (issue 44 item 6).
 */
const urls = process.argv.slice(2).filter((a) => a !== "--");
const targets = urls.length ? urls : config().COMFYUI_URLS;
if (!targets.length) {
  console.error("usage: npm run gpu:check -- http://gpu-host:8188 [more servers]   (or set COMFYUI_URLS)");
  process.exit(2);
}
const workflows = loadWorkflows();
const reports = await Promise.all(targets.map((url) => checkGpuServer(url, workflows, config().COMFYUI_MODELS)));
console.log(reports.map(formatGpuReport).join("\n\n"));
const cfg = config();
const database = cfg.DATABASE_URL ?? (await embeddedUrl(path.join(cfg.dataDir, "pg"), cfg.EMBEDDED_PG_PORT).catch(() => undefined));
const told = database
  ? await announceGpuCheck(
      database,
      reports.map((r) => r.url),
    ).then(
      () => true,
      (err: Error) => (console.error(`could not reach the database (${err.message})`), false),
    )
  : false;
console.log(
  told
    ? "\nRunning Reverie instances were told: they check these servers again now."
    : `\nNo Reverie database reached: running instances see this at their next workflow check (every ${cfg.COMFYUI_WORKFLOW_CHECK_SECONDS} s).`,
);
process.exitCode = reports.every((r) => r.workflows.some((w) => w.offered)) ? 0 : 1;
