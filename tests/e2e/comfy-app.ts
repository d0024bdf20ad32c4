import fs from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { AppServer } from "./app-per-file.ts";
import { ensureConsumerBuild, startAppServer } from "./consumer-app.ts";
import { mediaDir } from "./consumer-media.ts";
import { startWorkerFor } from "../generation-utils.ts";
import { startFakeComfy, type FakeComfy } from "../fixtures/fake-comfyui.ts";

/**
 * The app on a GPU engine for the describe block that calls this: one fake ComfyUI, the app's server with its worker,
 * a browser and a media folder, started before its first test and stopped after its last. Read them inside tests.
 */
export function comfyAppForThisFile(): { readonly comfy: FakeComfy; readonly server: AppServer; readonly browser: Browser; readonly dir: string } {
  const started = {} as { comfy: FakeComfy; server: AppServer; browser: Browser; dir: string };
  let worker: { stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    const { launchBrowser } = await import("./browser.ts");
    await ensureConsumerBuild();
    started.comfy = await startFakeComfy({ msPerStep: 1 });
    [started.server, started.browser, started.dir] = await Promise.all([
      startAppServer({ GENERATION_ENGINE: "comfyui", COMFYUI_URLS: started.comfy.url, COMFYUI_HEALTH_SECONDS: "0.3" }),
      launchBrowser(),
      mediaDir(),
    ]);
    worker = await startWorkerFor(started.server);
  }, 180_000);
  afterAll(async () => {
    await worker?.stop();
    await started.browser?.close();
    await started.server?.stop();
    await started.comfy?.close();
    if (started.dir) await fs.rm(started.dir, { recursive: true, force: true });
  });
  return started;
}
