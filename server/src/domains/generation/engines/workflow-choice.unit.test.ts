import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORKFLOWS_DIR } from "../../../paths.ts";
import { UnrunnableError } from "./engine.ts";
import { workflowControls, workflowFor } from "./controls.ts";
import { modesOf } from "./workflow-binding.ts";
import { chooseWorkflow } from "./workflow-choice.ts";
import { loadWorkflows, type Workflow } from "./workflows.ts";

/**
 * Issue 44 item 4 (decision 336): a request runs only on a workflow that uses everything it brings. With image to
 * image unavailable, a photo given to text to image ran text to image, charged, and ignored the photo.
 */
const workflows = loadWorkflows();
const all = () => true;
const except =
  (...names: string[]) =>
  (w: Workflow) =>
    !names.includes(w.name);
/** The workflows that read a photo in text to image: image to image, and the character pictures' reference workflow. */
const PHOTO_READERS = ["sdxl-i2i", "flux-i2i", "qwen-image-edit-character"];
/** A character model trained on SDXL, which the SDXL and no other workflows load. */
const lora = { baseModel: "stabilityai/stable-diffusion-xl-base-1.0" };
/** A character model as Reverie's fal and Replicate trainers make it: trained on FLUX.1-dev. */
const flux = { baseModel: "black-forest-labs/FLUX.1-dev" };
/** One trained on Wan 2.2 A14B, which its image-to-video workflows load. */
const wan = { baseModel: "Wan-AI/Wan2.2-I2V-A14B" };

describe("the workflow chooser never drops an input (issue 44 item 4)", () => {
  it("a photo given to text to image runs image to image, or nothing: never text to image while image to image cannot run", () => {
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "p.png" }, all).name).toBe("sdxl-i2i");
    // with neither photo reader running, image to image is answered, for the engine to refuse as unrunnable: never a
    // text-to-image one
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "p.png" }, except(...PHOTO_READERS)).name).toBe("sdxl-i2i");
    expect(workflowFor(workflows, { mode: "image_batch", source: "image" }, except("sdxl-i2i"))?.binding.needs).toContain("image");
    // without a photo, text to image as before
    expect(chooseWorkflow(workflows, { mode: "text_to_image" }, all).binding.needs).toEqual([]);
  });

  it("a character model runs only on a workflow that applies it", () => {
    expect(chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", lora: wan }, all).binding.lora.length).toBeGreaterThan(0);
    // the camera workflow has no LoRA slot: a camera move with a character model cannot run rather than lose either
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", camera: "zoom_in", lora: wan }, all)).toThrow(
      /no workflow makes image_to_video from a photo with a camera move with a character model trained on wan22-14b/,
    );
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", camera: "zoom_in", lora: wan }, all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", endImage: "q.png", workflow: "wan22-flf2v-14b", lora: wan }, all)).toThrow(
      /workflow wan22-flf2v-14b applies no character model/,
    );
  });

  it("the studio offers a reference picture in text to image only while a workflow using it runs", () => {
    expect(workflowControls(workflows, { mode: "text_to_image" }, all)).toContain("image");
    expect(workflowControls(workflows, { mode: "text_to_image" }, except(...PHOTO_READERS))).not.toContain("image");
  });

  it("a character's several pictures go to a workflow reading them all where one runs, else to one reading the avatar (decision 385)", () => {
    const look = { mode: "text_to_image" as const, image: "avatar.png", references: ["r1.png", "r2.png"] };
    expect(chooseWorkflow(workflows, look, all).name).toBe("qwen-image-edit-character");
    expect(chooseWorkflow(workflows, look, except("qwen-image-edit-character")).name).toBe("sdxl-i2i");
    // a studio photo (no references) keeps image to image first
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "p.png" }, all).name).toBe("sdxl-i2i");
    // a character model goes only where a LoRA slot is: the reference workflow has none
    expect(chooseWorkflow(workflows, { ...look, lora }, all).name).toBe("sdxl-i2i");
  });
});

describe("a binding declares exactly the modes it makes with the inputs it requires (issue 44 item 5)", () => {
  const byName = (...names: string[]) => workflows.filter((w) => names.includes(w.name));

  it("image to image does not make text to image on its own: with it alone, neither image mode is sold", () => {
    expect(modesOf(byName("sdxl-i2i"))).toEqual([]);
    expect(modesOf(byName("sdxl-i2i", "sdxl-t2i"))).toEqual(["text_to_image", "image_batch"]);
    // a transition or camera workflow alone does not sell image to video to someone without a second photo
    expect(modesOf(byName("wan22-flf2v-14b", "wan22-fun-camera-14b"))).toEqual([]);
    expect(modesOf(byName("wan22-animate-14b"))).toEqual([]);
    expect(modesOf(byName("wan22-i2v-14b"))).toEqual(["image_to_video", "role_video"]);
    // an upscale is a follow-up's, never a mode of its own
    expect(modesOf(byName("esrgan-upscale-image", "esrgan-upscale-video"))).toEqual([]);
  });

  it("a binding listing a mode whose requests never bring what it needs stops the start, naming it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wf-"));
    try {
      fs.copyFileSync(path.join(WORKFLOWS_DIR, "sdxl-i2i.json"), path.join(dir, "i2i.json"));
      const binding = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, "sdxl-i2i.binding.json"), "utf8"));
      fs.writeFileSync(path.join(dir, "i2i.binding.json"), JSON.stringify({ ...binding, modes: ["text_to_image", "text_to_video"] }));
      expect(() => loadWorkflows(dir)).toThrow("workflow i2i: it lists mode text_to_video, whose requests never bring image, which it needs");
      fs.writeFileSync(path.join(dir, "i2i.binding.json"), JSON.stringify(binding));
      expect(loadWorkflows(dir).map((w) => w.name)).toEqual(["i2i"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a character model runs only on a workflow of the model family it was trained on (decision 395)", () => {
  it("a Flux character's picture runs the Flux workflow, never SDXL's, also while the Flux one cannot run", () => {
    // with the character's cover as its photo, as the submit brings it
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "cover.png", lora: flux }, all).name).toBe("flux-i2i");
    expect(chooseWorkflow(workflows, { mode: "image_batch", image: "cover.png", lora: flux }, all).name).toBe("flux-i2i");
    expect(chooseWorkflow(workflows, { mode: "text_to_image", lora: flux }, all).name).toBe("flux-t2i");
    // no Flux server: the Flux workflow is answered, for the engine to refuse as unrunnable, not SDXL's
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "cover.png", lora: flux }, except("flux-i2i")).name).toBe("flux-i2i");
    expect(chooseWorkflow(workflows, { mode: "text_to_image", lora: flux }, except("flux-t2i")).name).toBe("flux-t2i");
  });

  it("an SDXL character runs SDXL's workflows, a Wan one Wan's of its size", () => {
    expect(chooseWorkflow(workflows, { mode: "text_to_image", image: "cover.png", lora }, all).name).toBe("sdxl-i2i");
    expect(chooseWorkflow(workflows, { mode: "text_to_image", lora }, all).name).toBe("sdxl-t2i");
    expect(chooseWorkflow(workflows, { mode: "role_video", image: "cover.png", lora: wan }, all).name).toBe("wan22-i2v-14b");
    const small = { baseModel: "Wan-AI/Wan2.2-TI2V-5B" };
    expect(chooseWorkflow(workflows, { mode: "role_video", image: "cover.png", lora: small }, all).name).toBe("wan22-ti2v-5b-i2v");
    expect(chooseWorkflow(workflows, { mode: "text_to_video", lora: small }, all).name).toBe("wan22-ti2v-5b-t2v");
  });

  it("no video workflow takes a Flux character: a video with one cannot run, on any workflow, pinned or not", () => {
    for (const mode of ["image_to_video", "role_video"] as const)
      expect(() => chooseWorkflow(workflows, { mode, image: "cover.png", lora: flux }, all)).toThrow(
        `no workflow makes ${mode} from a photo with a character model trained on flux`,
      );
    expect(() => chooseWorkflow(workflows, { mode: "text_to_video", lora: flux }, all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, { mode: "video_to_video", video: "v.mp4", lora: flux }, all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, { mode: "role_video", image: "cover.png", workflow: "wan22-i2v-14b", lora: flux }, all)).toThrow(
      "workflow wan22-i2v-14b takes character models trained on wan22-14b, not on flux",
    );
    expect(() => chooseWorkflow(workflows, { mode: "text_to_image", image: "cover.png", workflow: "sdxl-i2i", lora: flux }, all)).toThrow(
      "workflow sdxl-i2i takes character models trained on sdxl, not on flux",
    );
  });

  it("a character model whose base model maps to no family runs nowhere", () => {
    for (const baseModel of [null, "some/other-model"])
      expect(() => chooseWorkflow(workflows, { mode: "text_to_image", image: "cover.png", lora: { baseModel } }, all)).toThrow(
        `with a character model trained on an unknown base model (${baseModel ?? "none recorded"})`,
      );
  });

  it("the workflow a price or a refusal asks about is the same pick", () => {
    expect(workflowFor(workflows, { mode: "text_to_image", source: "image", lora: flux }, all)?.name).toBe("flux-i2i");
    expect(workflowFor(workflows, { mode: "role_video", source: "image", lora: flux }, all)).toBeUndefined();
    expect(workflowFor(workflows, { mode: "role_video", source: "image", lora: wan }, all)?.name).toBe("wan22-i2v-14b");
  });

  it("every binding with a LoRA slot names its family, and only those; a slot without one stops the start", () => {
    for (const w of workflows) expect([w.name, !!w.binding.loraFamily]).toEqual([w.name, w.binding.lora.length > 0]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wf-"));
    try {
      fs.copyFileSync(path.join(WORKFLOWS_DIR, "flux-t2i.json"), path.join(dir, "t2i.json"));
      const { loraFamily: _, ...binding } = JSON.parse(fs.readFileSync(path.join(WORKFLOWS_DIR, "flux-t2i.binding.json"), "utf8"));
      fs.writeFileSync(path.join(dir, "t2i.binding.json"), JSON.stringify(binding));
      expect(() => loadWorkflows(dir)).toThrow("workflow t2i: its LoRA slot names no loraFamily");
      fs.writeFileSync(path.join(dir, "t2i.binding.json"), JSON.stringify({ ...binding, lora: [], loraFamily: "flux" }));
      expect(() => loadWorkflows(dir)).toThrow("workflow t2i: it names a loraFamily but has no LoRA slot");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
