import path from "node:path";
import { startFakeComfy, type FakeComfyOptions } from "./fixtures/fake-comfyui.ts";
import { mediaDir } from "./fixtures/media.ts";
import { GENERATION_TEST_ENV, startWorkerFor } from "./generation-utils.ts";
import { startTestServer } from "./server-utils.ts";

/**
 * An API test server whose default engine is comfyui against one fake ComfyUI (fast health and workflow checks), with
 * its worker and a media folder: what the GPU modes' API tests stand on. `stop` ends them all.
 */
export async function startComfyTestServer(fakeOptions: FakeComfyOptions = {}) {
  const fake = await startFakeComfy(fakeOptions);
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
    media,
    s,
    async stop() {
      await worker.stop();
      await s.stop();
      await Promise.all([fake.close(), media.cleanup()]);
    },
  };
}
