import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORKFLOWS_DIR } from "../../../paths.ts";
import { UnrunnableError } from "./engine.ts";
import { workflowControls, workflowFor } from "./controls.ts";
import { modesOf } from "./workflow-binding.ts";
import { chooseWorkflow, loadWorkflows, type Workflow } from "./workflows.ts";

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
const PHOTO_READERS = ["sdxl-i2i", "qwen-image-edit-character"];
const lora = { path: "u/1/models/me.safetensors", url: "https://x/me.safetensors", triggerWord: "me", strength: 1, baseModel: "sdxl" };

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
    expect(chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", lora }, all).binding.lora.length).toBeGreaterThan(0);
    // the camera workflow has no LoRA slot: a camera move with a character model cannot run rather than lose either
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", camera: "zoom_in", lora }, all)).toThrow(
      /no workflow makes image_to_video from a photo with a camera move with a character model/,
    );
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", camera: "zoom_in", lora }, all)).toThrow(UnrunnableError);
    expect(() => chooseWorkflow(workflows, { mode: "image_to_video", image: "p.png", endImage: "q.png", workflow: "wan22-flf2v-14b", lora }, all)).toThrow(
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
