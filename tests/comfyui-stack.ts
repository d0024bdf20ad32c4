import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeComfy } from "./fixtures/fake-comfyui.ts";
import { mediaDir } from "./fixtures/media.ts";
import { GENERATION_TEST_ENV, startWorkerFor } from "./generation-utils.ts";
import { startTestServer } from "./server-utils.ts";

/**
 * The comfyui engine end to end in one process, as issue 33's modes are tested: one fake ComfyUI server, the API on
 * it (its health and workflow checks quick, so a workflow a failed render took off comes back within a second or so)
 * and a worker; media under a folder of the test's own.
 */
export async function startComfyStack() {
  const fake = await startFakeComfy({ msPerStep: 2 });
  const media = await mediaDir();
  const s = await startTestServer({
    ...GENERATION_TEST_ENV,
    DATA_DIR: path.join(media.dir, "data"),
    GENERATION_ENGINE: "comfyui",
    COMFYUI_URLS: fake.url,
    COMFYUI_HEALTH_SECONDS: "0.3",
    COMFYUI_WORKFLOW_CHECK_SECONDS: "1",
  });
  const worker = await startWorkerFor(s);
  return {
    fake,
    s,
    media,
    async stop() {
      await worker.stop();
      await s.stop();
      await Promise.all([fake.close(), media.cleanup()]);
    },
  };
}

export type ComfyStack = Awaited<ReturnType<typeof startComfyStack>>;

/** The stack for one test file: started before its tests (`ready` hands the file its parts), stopped after them. */
export function comfyStackForFile(ready: (stack: ComfyStack) => void) {
  let stack: ComfyStack | undefined;
  beforeAll(async () => {
    stack = await startComfyStack();
    ready(stack);
  }, 60_000);
  afterAll(() => stack?.stop());
}
