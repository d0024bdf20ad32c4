import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BaseModel } from "../../contract/training.ts";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { loraSafetensors } from "../../../../tests/fixtures/lora-files.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { grant, startComfyTestApp, waitForTask } from "../../../../tests/generation-utils.ts";
import type { startTestServer } from "../../../../tests/server-utils.ts";
import { MSG } from "../../http/messages.ts";
import { BASE_MODELS } from "../../contract/training.ts";

/**
 * Issue 44 item 4 for a character model (decision 395): a LoRA runs only on a workflow of the model family it was
 * trained on. Reverie's trainers train on FLUX.1-dev; on an SDXL or Wan workflow ComfyUI loads none of its keys, only
 * logs "lora key not loaded", and the render succeeds without the likeness. Where no workflow of the family makes the
 * request, it is refused before any charge, and the quote says so first.
 */
let fake: FakeComfy;
let s: Awaited<ReturnType<typeof startTestServer>>;
let stopApp: () => Promise<void>;

beforeAll(async () => {
  fake = await startFakeComfy({ msPerStep: 2 });
  ({ app: s, stop: stopApp } = await startComfyTestApp(fake.url, { COMFYUI_WORKFLOW_CHECK_SECONDS: "1" }, { ownPublicUrl: true }));
}, 60_000);
afterAll(async () => {
  await stopApp?.();
  await fake?.close();
});

const CREDITS = 50;

/** A person with credits and a trained character model on `base`, its weights of that family as training stores them. */
async function personWith(base: BaseModel) {
  const u = await visitor(s);
  await grant(s, u.userId, CREDITS);
  const cover = (
    await s.http
      .post("/api/ImageUpload/upload")
      .set("token", u.token)
      .attach("file", await photo(300, 400, "png"), "me.png")
      .field("consent", "1")
      .expect(200)
  ).body.data.id as number;
  const weights = loraSafetensors(4, 64 + u.userId, BASE_MODELS[base]);
  const artifactKey = `u/${u.userId}/models/me.safetensors`;
  await s.services.storage.put(artifactKey, weights, "application/octet-stream");
  const model = await s.db.characterModel.create({
    data: {
      userId: u.userId,
      name: "Me",
      homeLink: `me${u.userId}`,
      coverUploadId: cover,
      cost: 5,
      status: "success",
      artifactKey,
      triggerWord: "rvtest",
      baseModel: base,
      weightsSha256: crypto.createHash("sha256").update(weights).digest("hex"),
    },
  });
  const post = (route: string, body: object) =>
    s.http
      .post(route)
      .set("token", u.token)
      .send({ role_id: model.id, ...body });
  return { ...u, model, post, quote: async (body: object) => (await post("/api/Generation/getDurationPoints", body).expect(200)).body.data };
}

/** The workflow's model files and the LoRA loaders of the prompt the fake ComfyUI was sent last. */
function lastPrompt() {
  const nodes = Object.values(fake.recorded.prompts.at(-1)!.prompt) as { class_type: string; inputs: Record<string, unknown> }[];
  return {
    models: nodes.map((n) => n.inputs.unet_name ?? n.inputs.ckpt_name).filter(Boolean),
    loaders: nodes.filter((n) => n.class_type.startsWith("ReverieLoraLoader")).length,
  };
}

/** Nothing charged, no task made, for a refused request. */
async function untouched(userId: number) {
  expect((await s.services.credits.balance(userId)).points).toBe(CREDITS);
  expect(await s.db.generationTask.count({ where: { userId } })).toBe(0);
  expect(await s.db.ledgerEntry.count({ where: { userId, reason: "generation" } })).toBe(0);
}

describe("a character model runs only on a workflow of its own model family (decision 395)", () => {
  it("a Flux character's picture runs Flux image to image from its cover, loading every key: never SDXL's", async () => {
    const u = await personWith("black-forest-labs/FLUX.1-dev");
    expect(await u.quote({ type: "image", mode: "text_to_image" })).toMatchObject({ available: true, reason: null });
    const logged = fake.recorded.log.length;
    const res = await u.post("/api/Generation/textPicSubmit", { prompt: "me at the beach" }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 30_000)).status).toBe("succeeded");
    expect(lastPrompt()).toEqual({ models: ["flux1-dev.safetensors"], loaders: 1 });
    // on sdxl-i2i the fake, like ComfyUI, logs "lora key not loaded" for each tensor and succeeds all the same
    expect(fake.recorded.log.slice(logged)).toEqual([]);
  }, 60_000);

  it("an SDXL character's picture runs SDXL's", async () => {
    const u = await personWith("stabilityai/stable-diffusion-xl-base-1.0");
    const logged = fake.recorded.log.length;
    const res = await u.post("/api/Generation/textPicSubmit", { prompt: "me at the beach" }).expect(200);
    expect((await waitForTask(s, res.body.data.id, 30_000)).status).toBe("succeeded");
    expect(lastPrompt()).toEqual({ models: ["sd_xl_base_1.0.safetensors"], loaders: 1 });
    expect(fake.recorded.log.slice(logged)).toEqual([]);
  }, 60_000);

  it("a Flux character's video, which no Wan or LTX workflow can load, is refused before any charge; the quote says so first", async () => {
    const u = await personWith("black-forest-labs/FLUX.1-dev");
    const prompts = fake.recorded.prompts.length;
    const quote = await u.quote({ type: "video", mode: "role_video", duration: 4 });
    expect(quote).toMatchObject({ available: false, reason: MSG.characterNotForThis });
    // the same request without the character model is sold
    expect(
      (await s.http.post("/api/Generation/getDurationPoints").send({ type: "video", mode: "role_video", duration: 4 }).expect(200)).body.data.available,
    ).toBe(true);
    const answers = await Promise.all([
      u.post("/api/Generation/roleVideoSubmit", { resolution: "480P", duration: 4 }),
      u.post("/api/Generation/textVideoSubmit", { prompt: "waving", resolution: "480P", duration: 4 }),
    ]);
    for (const res of answers) expect([res.status, res.body.msg]).toEqual([503, MSG.characterNotForThis]);
    await untouched(u.userId);
    expect(fake.recorded.prompts).toHaveLength(prompts);
  }, 60_000);

  it("a template pinned to another family's workflow refuses the character with 400, before any charge", async () => {
    const u = await personWith("black-forest-labs/FLUX.1-dev");
    const template = await s.db.template.create({
      data: { name: "sdxl look", category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1, workflow: "sdxl-i2i" },
    });
    expect(await u.quote({ type: "image", mode: "text_to_image", template_id: template.id })).toMatchObject({ misfit: MSG.templateTakesNotThisCharacter });
    const res = await u.post("/api/Generation/textPicSubmit", { prompt: "me", template_id: template.id });
    expect([res.status, res.body.msg]).toEqual([400, MSG.templateTakesNotThisCharacter]);
    await untouched(u.userId);
  }, 60_000);

  it("while no server runs the Flux workflows, a Flux character's picture is refused before any charge, not sent to SDXL", async () => {
    const u = await personWith("black-forest-labs/FLUX.1-dev");
    const prompts = fake.recorded.prompts.length;
    fake.removeModel("diffusion_models", "flux1-dev.safetensors");
    try {
      const deadline = Date.now() + 15_000;
      let quote = await u.quote({ type: "image", mode: "text_to_image" });
      while (quote.available && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        quote = await u.quote({ type: "image", mode: "text_to_image" });
      }
      expect(quote).toMatchObject({ available: false, reason: MSG.characterUnavailable });
      const res = await u.post("/api/Generation/textPicSubmit", { prompt: "me at the beach" });
      expect([res.status, res.body.msg]).toEqual([503, MSG.characterUnavailable]);
      await untouched(u.userId);
      expect(fake.recorded.prompts).toHaveLength(prompts);
      // image to image from a photo, without a character, still runs on SDXL
      expect(
        (await s.http.post("/api/Generation/getDurationPoints").send({ type: "image", mode: "text_to_image", image_id: 1 }).expect(200)).body.data.available,
      ).toBe(true);
    } finally {
      fake.addModel("diffusion_models", "flux1-dev.safetensors");
    }
  }, 60_000);

  it("a quote naming a character model is the signed-in owner's only", async () => {
    const u = await personWith("black-forest-labs/FLUX.1-dev");
    await s.http.post("/api/Generation/getDurationPoints").send({ type: "image", role_id: u.model.id }).expect(401);
    const other = await visitor(s);
    await s.http.post("/api/Generation/getDurationPoints").set("token", other.token).send({ type: "image", role_id: u.model.id }).expect(404);
  });
});
