import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { startFakeComfy, type FakeComfyOptions } from "./fixtures/fake-comfyui.ts";
import { mediaDir } from "./fixtures/media.ts";
import { startComfyApp } from "./generation-utils.ts";

/**
 * The comfyui engine end to end in one process, as issue 33's modes are tested: one fake ComfyUI server, the API on
 * it (its health and workflow checks quick, so a workflow a failed render took off comes back within a second or so)
 * and a worker; media under a folder of the test's own.
 */
export async function startComfyStack(fakeOptions: FakeComfyOptions = { msPerStep: 2 }) {
  const fake = await startFakeComfy(fakeOptions);
  const media = await mediaDir();
  const { app: s, worker } = await startComfyApp(fake.url, path.join(media.dir, "data"));
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
