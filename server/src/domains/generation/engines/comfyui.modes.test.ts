import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLog } from "../../../../../tests/db-utils.ts";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../../../../../tests/fixtures/fake-comfyui.ts";
import { mediaDir, photo } from "../../../../../tests/fixtures/media.ts";
import { createComfyEngine } from "./comfyui.engine.ts";
import { loadWorkflows } from "./workflows.ts";

/**
 * Issue 44 item 5 on the fake ComfyUI: with text to image unrunnable (no EmptyLatentImage, no Flux model) and image to
 * image runnable, the engine does not offer text to image (it was sold, charged, and failed 50 ms later); a picture
 * from a photo still runs.
 */
let fake: FakeComfy;
let media: Awaited<ReturnType<typeof mediaDir>>;
beforeAll(async () => {
  media = await mediaDir();
  fake = await startFakeComfy({
    missingNodes: ["EmptyLatentImage"],
    models: { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => !m.startsWith("flux")) },
  });
});
afterAll(async () => {
  await fake.close();
  await media.cleanup();
});

describe("what the engine offers follows what its workflows make from each mode's own inputs (issue 44 item 5)", () => {
  it("image to image alone does not offer text to image; a photo's picture still runs", async () => {
    const engine = createComfyEngine({
      urls: [fake.url],
      workflows: loadWorkflows(),
      models: {},
      healthMs: 200,
      workflowCheckMs: 60_000,
      maxTries: 1,
      log: silentLog,
    });
    try {
      const status = await engine.status();
      expect(status.workflows).toContain("sdxl-i2i");
      expect(status.workflows).not.toContain("sdxl-t2i");
      expect(status.modes).not.toContain("text_to_image");
      expect(status.modes).not.toContain("image_batch");
      expect(status.modes).toContain("image_to_video");
      const image = path.join(media.dir, "p.jpg");
      await fs.writeFile(image, await photo(320, 240));
      const workDir = path.join(media.dir, "job");
      await fs.mkdir(workDir);
      const id = await engine.submit({
        mode: "text_to_image",
        image,
        prompt: "ink",
        workDir,
        params: {},
        resolution: "480P",
        durationSec: 1,
        count: 1,
        seed: 1,
        key: "modes:1",
      });
      expect((await engine.result(id)).width).toBeGreaterThan(0);
    } finally {
      await engine.close!();
    }
  }, 30_000);
});
