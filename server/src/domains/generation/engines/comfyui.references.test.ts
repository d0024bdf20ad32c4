import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLog } from "../../../../../tests/db-utils.ts";
import { ALL_MODELS, startFakeComfy, type FakeComfy } from "../../../../../tests/fixtures/fake-comfyui.ts";
import { mediaDir, photo } from "../../../../../tests/fixtures/media.ts";
import { createComfyEngine } from "./comfyui.engine.ts";
import { loadWorkflows } from "./workflows.ts";

/**
 * Issue 50 item 2 (decision 385) on the fake ComfyUI: a character's picture made on a server that has the reference
 * workflow reads the avatar and every reference picture, each uploaded under a name of its own and bound to its own
 * slot; on a server without it, the avatar alone goes to image to image.
 */
let media: Awaited<ReturnType<typeof mediaDir>>;
/** A server without the reference workflow's model (the rest as usual). */
const NO_QWEN = { ...ALL_MODELS, diffusion_models: ALL_MODELS.diffusion_models.filter((m) => !m.startsWith("qwen")) };
beforeAll(async () => {
  media = await mediaDir();
});
afterAll(async () => {
  await media.cleanup();
});

/** Renders a character's picture (avatar and `refs` reference pictures) on a fresh fake server; answers what it was sent. */
async function render(fake: FakeComfy, refs: number, key: string) {
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
    await engine.status();
    const file = async (name: string, w: number) => {
      const f = path.join(media.dir, `${key}-${name}.jpg`);
      await fs.writeFile(f, await photo(w, 320));
      return f;
    };
    const avatar = await file("avatar", 320);
    const references = await Promise.all(Array.from({ length: refs }, (_, i) => file(`ref${i + 1}`, 240 + 10 * i)));
    const workDir = path.join(media.dir, key);
    await fs.mkdir(workDir);
    const id = await engine.submit({
      mode: "text_to_image",
      image: avatar,
      references,
      prompt: "Mira on the harbour wall",
      workDir,
      params: {},
      resolution: "480P",
      durationSec: 0,
      count: 1,
      seed: 7,
      key,
    });
    expect((await engine.result(id)).width).toBeGreaterThan(0);
    return fake.recorded.prompts.at(-1)!.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  } finally {
    await engine.close!();
  }
}

describe("a character's reference pictures on GPU engines (decision 385)", () => {
  it("the reference workflow reads the avatar and all four references, each its own upload in its own slot", async () => {
    const fake = await startFakeComfy();
    try {
      const prompt = await render(fake, 4, "four");
      const loaded = ["10", "11", "12", "13", "14"].map((n) => prompt[n].inputs.image as string);
      expect(prompt["20"].class_type).toBe("TextEncodeQwenImageEditPlus");
      expect(new Set(loaded).size).toBe(5);
      expect(loaded[0]).not.toMatch(/-ref/);
      expect(loaded.slice(1).map((n) => /-ref(\d)\./.exec(n)?.[1])).toEqual(["1", "2", "3", "4"]);
      expect(fake.recorded.uploads.filter((u) => /-ref\d\./.test(u))).toHaveLength(4);
    } finally {
      await fake.close();
    }
  }, 30_000);

  it("fewer references than slots: each slot still reads one of the character's own pictures, in turn", async () => {
    const fake = await startFakeComfy();
    try {
      const prompt = await render(fake, 2, "two");
      const refs = ["11", "12", "13", "14"].map((n) => /-ref(\d)\./.exec(prompt[n].inputs.image as string)?.[1]);
      expect(refs).toEqual(["1", "2", "1", "2"]);
    } finally {
      await fake.close();
    }
  }, 30_000);

  it("without the reference workflow's models, image to image from the avatar alone; the references are not uploaded", async () => {
    const fake = await startFakeComfy({ models: NO_QWEN });
    try {
      const prompt = await render(fake, 3, "single");
      expect(Object.values(prompt).some((n) => n.class_type === "CheckpointLoaderSimple")).toBe(true);
      expect(Object.values(prompt).filter((n) => n.class_type === "LoadImage")).toHaveLength(1);
      expect(fake.recorded.uploads.filter((u) => /-ref\d\./.test(u))).toEqual([]);
    } finally {
      await fake.close();
    }
  }, 30_000);
});
