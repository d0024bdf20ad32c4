import { config } from "../server/src/config.ts";
import { checkGpuServer, formatGpuReport } from "../server/src/domains/generation/engines/gpu-check.ts";
import { loadWorkflows } from "../server/src/domains/generation/engines/workflows.ts";

/**
 * `npm run gpu:check -- <comfyui url> [...]` (default: COMFYUI_URLS): per workflow, whether the server can run it, or
 * the nodes and model files it lacks with where to get each (issue 34). Exits 1 when a server runs none of them.
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
process.exitCode = reports.every((r) => r.workflows.some((w) => w.offered)) ? 0 : 1;
