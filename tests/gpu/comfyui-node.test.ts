import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { PROJECT_DIR } from "../../server/src/paths.ts";

/**
 * Reverie's ComfyUI node (gpu/comfyui-reverie, decision 330) is Python that runs on the GPU servers: its own unit tests
 * (the cache's fetch, hash check, LRU bound, eviction and age sweep; the loaders and routes with ComfyUI's modules
 * stood in for) run here with the machine's python3, so a change to it is tested with the rest.
 */
it("passes its Python tests", async () => {
  const dir = path.join(PROJECT_DIR, "gpu/comfyui-reverie");
  const { stderr } = await promisify(execFile)("python3", ["-B", "-m", "unittest", "discover", "-s", dir, "-v"], { cwd: dir, timeout: 60_000 });
  expect(stderr).toMatch(/Ran \d+ tests[\s\S]*\nOK\n?$/);
  expect(stderr).toMatch(/test_loaders_fetch_by_hash_and_the_evict_route_deletes \([^)]*\) \.\.\.[^\n]*(\n(?!test_)[^\n]*)*?\n?ok\n/);
}, 90_000);
