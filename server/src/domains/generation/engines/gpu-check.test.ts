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
let noAudio: FakeComfy;
let oldComfy: FakeComfy;
let bare: FakeComfy;

beforeAll(async () => {
  lacking = await startFakeComfy({ models: { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => m !== HIGH) } });
  noNodes = await startFakeComfy({ missingNodes: ["WanImageToVideo", ...CHARACTER_NODES] });
  // a 0.3.64 server whose audio nodes failed to import (torchaudio missing): what the real one did (issue 45)
  noAudio = await startFakeComfy({ missingNodes: ["LoadAudio", "AudioEncoderLoader", "AudioEncoderEncode"] });
  oldComfy = await startFakeComfy({ missingNodes: ["WanSoundImageToVideo"], version: "0.3.40" });
  bare = await startFakeComfy({ models: { ...ALL_MODELS, text_encoders: [], vae: [], checkpoints: [] } });
});
afterAll(async () => {
  await lacking.close();
  await noNodes.close();
  await noAudio.close();
  await oldComfy.close();
  await bare.close();
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

  it("an overridden file is fetched from its own manifest entry, or said to be the operator's choice, never from the slot's file", async () => {
    // the README's own example: FLUX.1-schnell in the FLUX.1-dev slot; and a t5xxl override naming the fp8 file
    const r = await checkGpuServer(lacking.url, workflows, { flux1_dev: "flux1-schnell.safetensors", umt5_xxl: "umt5_xxl_fp16.safetensors" });
    const flux = r.workflows.find((w) => w.name === "flux-t2i");
    expect(flux?.missingFiles).toEqual([
      { slot: "flux1_dev", file: "flux1-schnell.safetensors", folder: "diffusion_models", url: null, size: null, sha256: null },
    ]);
    expect(JSON.stringify(r.downloads)).not.toContain("flux1-dev.safetensors");
    const text = formatGpuReport(r);
    expect(text).toContain("models/diffusion_models/flux1-schnell.safetensors (size not recorded) for flux-i2i, flux-t2i");
    expect(text).toContain("from where you chose it: the manifest does not know this file (COMFYUI_MODELS)");
    // a file the manifest knows as another slot's default is fetched from that entry: the fp8 text encoder in LTX's
    // t5xxl slot (whose own default is the fp16 file) comes from the fp8 file's address
    const fp8 = await checkGpuServer(bare.url, workflows, { t5xxl: "t5xxl_fp8_e4m3fn.safetensors" });
    expect(fp8.workflows.find((w) => w.name === "ltxv-i2v")?.missingFiles).toContainEqual(
      expect.objectContaining({
        slot: "t5xxl",
        file: "t5xxl_fp8_e4m3fn.safetensors",
        url: "https://huggingface.co/comfyanonymous/flux_text_encoders/resolve/main/t5xxl_fp8_e4m3fn.safetensors",
      }),
    );
    expect(fp8.downloads.filter((d) => d.url?.endsWith("/t5xxl_fp16.safetensors")).flatMap((d) => d.workflows)).not.toContain("ltxv-i2v");
  });

  it("on a new enough ComfyUI, missing stock nodes name the Python package that brings them back; an old one is told to update", async () => {
    const r = await checkGpuServer(noAudio.url, workflows, {});
    const s2v = r.workflows.find((w) => w.name === "wan22-s2v-14b");
    expect(s2v).toMatchObject({ offered: false, nodesAdvice: { packages: ["torchaudio"], unloaded: [] } });
    expect(s2v?.nodesAdvice?.update).toBeUndefined();
    expect(formatGpuReport(r)).toContain("install the Python package torchaudio in ComfyUI's environment (pip install torchaudio)");
    expect(formatGpuReport(r)).not.toContain("update ComfyUI");
    const old = await checkGpuServer(oldComfy.url, workflows, {});
    expect(old.workflows.find((w) => w.name === "wan22-s2v-14b")?.nodesAdvice).toEqual({ update: "0.3.64", packages: [], unloaded: [] });
    expect(formatGpuReport(old)).toContain("missing nodes: WanSoundImageToVideo — update ComfyUI to 0.3.64 or later");
    // a stock node of no known package on a new server: the log explains it, no update is asked for
    const n = await checkGpuServer(noNodes.url, workflows, {});
    expect(n.workflows.find((w) => w.name === "wan22-i2v-14b")?.nodesAdvice).toEqual({ packages: [], unloaded: ["WanImageToVideo"] });
  });

  it("lists each missing file once per server with the workflows that wait for it, and the total to download", async () => {
    const r = await checkGpuServer(bare.url, workflows, {});
    const files = r.downloads.map((d) => d.file);
    expect(new Set(files).size).toBe(files.length);
    const umt5 = r.downloads.find((d) => d.file === "umt5_xxl_fp8_e4m3fn_scaled.safetensors");
    expect(umt5?.workflows.length).toBeGreaterThan(3);
    expect(umt5?.workflows).toEqual(expect.arrayContaining(["wan22-i2v-14b", "wan22-i2v-14b-fast", "wan22-ti2v-5b-t2v"]));
    // what the manifest says of the files this server lacks (its text encoders, VAEs and checkpoints), each file once
    const lacked = new Map(
      workflows
        .flatMap((w) => Object.values(w.binding.models))
        .filter((m) => ["text_encoders", "vae", "checkpoints"].includes(m.folder))
        .map((m) => [m.default, m.size] as const),
    );
    expect(files.sort()).toEqual([...lacked.keys()].sort());
    expect(r.downloadBytes).toBe([...lacked.values()].reduce<number>((sum, size) => sum + (size ?? 0), 0));
    expect(r.downloadsUnsized).toBe([...lacked.values()].filter((size) => size === null).length);
    const text = formatGpuReport(r);
    expect(text.match(/models\/text_encoders\/umt5_xxl_fp8_e4m3fn_scaled\.safetensors \(/g)).toHaveLength(1);
    expect(text).toMatch(/to download, each once \([\d.]+ GB/);
    // the manifest's size and hash reach the operator (decision 398)
    expect(text).toContain("models/text_encoders/umt5_xxl_fp8_e4m3fn_scaled.safetensors (6.3 GB) for");
    expect(text).toContain("sha256 c3355d30191f1f066b26d93fba017ae9809dce6c627dda5f6a66eaa651204f68");
  });

  it("describes a file that several workflows load by one manifest entry: folder, download, size and hash agree", () => {
    // the check, its downloads and an overridden slot all read a file's first entry (manifestOf), so a second one must not differ
    const entries = new Map<string, string>();
    for (const w of workflows)
      for (const m of Object.values(w.binding.models)) {
        const entry = JSON.stringify({ folder: m.folder, url: m.url, size: m.size, sha256: m.sha256 });
        expect(entry, `${w.name}: ${m.default}`).toBe(entries.get(m.default) ?? entry);
        entries.set(m.default, entry);
      }
    expect([...entries.keys()].length).toBeGreaterThan(20);
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
