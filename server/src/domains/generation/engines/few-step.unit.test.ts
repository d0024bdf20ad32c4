import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COST_CLASS_FACTORS } from "../../../contract/engines.ts";
import type { EngineJob } from "./engine.ts";
import { loraLinks } from "./lora-links.ts";
import { chooseWorkflow } from "./workflow-choice.ts";
import { bindWorkflow, loadWorkflows } from "./workflows.ts";

/** The few-step tier (issue 45, decision 370): chosen only when asked for, stacked with a person's LoRA, cheaper. */
const workflows = loadWorkflows();
const all = () => true;
let dir: string;
let photo: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "reverie-few-step-"));
  photo = path.join(dir, "photo.png");
  await sharp({ create: { width: 640, height: 480, channels: 3, background: "#888" } })
    .png()
    .toFile(photo);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const job = (o: Partial<EngineJob> = {}): EngineJob => ({
  mode: "image_to_video",
  workDir: dir,
  params: {},
  resolution: "720P",
  durationSec: 5,
  count: 1,
  seed: 7,
  key: "k",
  image: photo,
  ...o,
});
const LORA = {
  url: "https://media.example/lora/c.safetensors",
  path: "lora/c.safetensors",
  sha256: "a".repeat(64),
  triggerWord: "rvr",
  strength: 0.8,
  baseModel: null,
};

describe("few-step workflows beside the full ones", () => {
  it("a request runs a workflow of its own tier only; a template's pin and an upscale follow-up run whatever they name", () => {
    expect(chooseWorkflow(workflows, job(), all).binding.tier).toBe("full");
    expect(chooseWorkflow(workflows, job({ tier: "full" }), all).name).toBe("wan22-i2v-14b");
    expect(chooseWorkflow(workflows, job({ tier: "fast" }), all).name).toBe("wan22-i2v-14b-fast");
    expect(chooseWorkflow(workflows, job({ tier: "fast", mode: "text_to_video", image: undefined }), all).name).toBe("wan22-ti2v-5b-t2v-fast");
    // the fast tier's next server-ready choice is another fast workflow, never a full one
    const noA14b = (w: { name: string }) => w.name !== "wan22-i2v-14b-fast";
    expect(chooseWorkflow(workflows, job({ tier: "fast" }), noA14b).binding.tier).toBe("fast");
    expect(chooseWorkflow(workflows, job({ tier: "fast", workflow: "ltxv-i2v" }), all).name).toBe("ltxv-i2v");
    expect(chooseWorkflow(workflows, job({ tier: "fast", video: "clip.mp4", image: undefined, followUp: "upscale" }), all).name).toBe("esrgan-upscale-video");
  });

  it("every fast workflow is a full one's twin: same modes and needs, fewer steps at CFG 1, a cost class no heavier", () => {
    const fast = workflows.filter((w) => w.binding.tier === "fast");
    expect(fast.map((w) => w.name).sort()).toEqual(["ltxv-distilled-i2v", "wan22-i2v-14b-fast", "wan22-ti2v-5b-i2v-fast", "wan22-ti2v-5b-t2v-fast"]);
    for (const wf of fast) {
      const twin = workflows.find(
        (w) => w.binding.tier === "full" && w.binding.modes.join() === wf.binding.modes.join() && w.binding.needs.join() === wf.binding.needs.join(),
      );
      expect(twin, wf.name).toBeDefined();
      const samplers = Object.values(wf.graph).filter((n) => n.class_type.startsWith("KSampler"));
      for (const s of samplers) {
        expect(s.inputs.cfg, wf.name).toBe(1);
        expect(s.inputs.steps, wf.name).toBeLessThanOrEqual(8);
      }
      expect(COST_CLASS_FACTORS[wf.binding.costClass]).toBeLessThanOrEqual(COST_CLASS_FACTORS[twin?.binding.costClass ?? "image"]);
    }
  });

  it("the A14B fast workflow splits 4 steps 2+2 across its experts, each through its distillation LoRA after the person's own", async () => {
    const wf = workflows.find((w) => w.name === "wan22-i2v-14b-fast");
    if (!wf) throw new Error("no wan22-i2v-14b-fast");
    const bound = async (lora?: typeof LORA) =>
      (
        await bindWorkflow(wf, job({ tier: "fast", lora }), {
          image: "in.png",
          models: {},
          prefix: "p",
          server: "http://gpu-1:8188",
          links: loraLinks("test-secret", "https://reverie.example", 600),
        })
      ).prompt;
    const withLora = await bound(LORA);
    expect(withLora["12"].inputs).toMatchObject({ steps: 4, start_at_step: 0, end_at_step: 2, cfg: 1 });
    expect(withLora["13"].inputs).toMatchObject({ steps: 4, start_at_step: 2, cfg: 1 });
    // model → character LoRA → distillation LoRA → shift, on both experts
    expect(withLora["20"].inputs.model).toEqual(["5", 0]);
    expect(withLora["21"].inputs.model).toEqual(["17", 0]);
    expect(withLora["5"]).toMatchObject({ class_type: "ReverieLoraLoaderModelOnly", inputs: { sha256: LORA.sha256 } });
    expect(withLora["20"].inputs.lora_name).toBe("wan2.2_i2v_lightx2v_4steps_lora_v1_high_noise.safetensors");
    // without a character LoRA its loaders go, the distillation LoRAs stay
    const plain = await bound();
    expect(plain["5"]).toBeUndefined();
    expect(plain["20"].inputs.model).toEqual(["1", 0]);
    expect(plain["21"].inputs.model).toEqual(["2", 0]);
  });
});
