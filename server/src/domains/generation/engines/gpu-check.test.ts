import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../../../../../tests/fixtures/fake-comfyui.ts";
import { checkGpuServer, formatGpuReport } from "./gpu-check.ts";
import { CHARACTER_NODES } from "./lora-links.ts";
import { loadWorkflows } from "./workflows.ts";

/** Issue 34: an operator learns, per workflow, what a server lacks and where to get it. */
const workflows = loadWorkflows();
const HIGH = "wan2.2_i2v_high_noise_14B_fp8_scaled.safetensors";
let lacking: FakeComfy;
let noNodes: FakeComfy;

beforeAll(async () => {
  lacking = await startFakeComfy({ models: { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => m !== HIGH) } });
  noNodes = await startFakeComfy({ missingNodes: ["WanImageToVideo", ...CHARACTER_NODES] });
});
afterAll(async () => {
  await lacking.close();
  await noNodes.close();
});

describe("gpu check", () => {
  it("names each missing file with its folder, download, size and hash, and what fits the GPU", async () => {
    const r = await checkGpuServer(lacking.url, workflows, {});
    expect(r).toMatchObject({ reachable: true, comfyuiVersion: "0.3.64", gpus: [{ name: "cuda:0 fake", memoryGB: 23.3 }] });
    const byName = Object.fromEntries(r.workflows.map((w) => [w.name, w]));
    expect(byName["wan22-i2v-14b"]).toMatchObject({
      offered: false,
      fitsMemory: false,
      gpuMemoryGB: 43,
      missingFiles: [
        {
          slot: "wan22_i2v_high_14b",
          file: HIGH,
          folder: "diffusion_models",
          url: `https://huggingface.co/Comfy-Org/Wan_2.2_ComfyUI_Repackaged/resolve/main/split_files/diffusion_models/${HIGH}`,
        },
      ],
    });
    expect(byName["sdxl-t2i"]).toMatchObject({ offered: true, fitsMemory: true });
    const text = formatGpuReport(r);
    expect(text).toContain(`NOT READY  wan22-i2v-14b`);
    expect(text).toContain(`missing file: models/diffusion_models/${HIGH}`);
    expect(text).toMatch(/runnable {3}sdxl-t2i/);
  });

  it("honours COMFYUI_MODELS: a configured file the server lacks is the one asked for", async () => {
    const r = await checkGpuServer(lacking.url, workflows, { sdxl: "my_sdxl.safetensors" });
    expect(r.workflows.find((w) => w.name === "sdxl-t2i")).toMatchObject({
      offered: false,
      missingFiles: [{ file: "my_sdxl.safetensors", folder: "checkpoints" }],
    });
  });

  it("names missing nodes", async () => {
    const r = await checkGpuServer(noNodes.url, workflows, {});
    expect(r.workflows.find((w) => w.name === "wan22-i2v-14b")).toMatchObject({ offered: false, missingNodes: ["WanImageToVideo"] });
    expect(formatGpuReport(r)).toContain("missing nodes: WanImageToVideo");
  });

  it("says whether a server is ready for character models: Reverie's LoRA node in its /object_info (decision 330)", async () => {
    const [ready, bare] = await Promise.all([checkGpuServer(lacking.url, workflows, {}), checkGpuServer(noNodes.url, workflows, {})]);
    expect([ready.characterModels, bare.characterModels]).toEqual([true, false]);
    expect(formatGpuReport(ready)).toContain("character models: ready");
    expect(formatGpuReport(bare)).toContain("character models: NOT READY — install gpu/comfyui-reverie");
  });

  it("says when a server cannot be reached", async () => {
    const r = await checkGpuServer("http://127.0.0.1:9/", workflows, {});
    expect(r).toMatchObject({ url: "http://127.0.0.1:9", reachable: false, workflows: [] });
    expect(formatGpuReport(r)).toMatch(/^http:\/\/127\.0\.0\.1:9: unreachable \(/);
  });
});
