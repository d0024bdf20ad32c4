import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startComfyStack, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import type { FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { buyer, waitForTask } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";

/**
 * Issue 45 through the API on the comfyui engine: best or fast, the person's choice. The quote prices each tier the
 * request has, a submit of the fast tier runs a few-step workflow at its lower price, an extension keeps its clip's
 * tier, a template pinned to one workflow offers no choice, and a fast tier no server offers is refused before any
 * charge, never run on a best workflow in its place.
 */
let fake: FakeComfy;
let s: ComfyStack["s"];
let stop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ fake, s, stop } = await startComfyStack({ msPerStep: 1 }));
}, 60_000);
afterAll(() => stop?.());

const quote = async (body: object) => (await s.http.post("/api/Generation/getDurationPoints").send(body).expect(200)).body.data;
const post = (token: string, route: string, body: object) => s.http.post(`/api/Generation/${route}`).set("token", token).send(body);

const person = (credits: number) => buyer(s, credits);
async function upload(token: string) {
  const res = await s.http
    .post("/api/ImageUpload/upload")
    .set("token", token)
    .attach("file", await photo(640, 360), "p.jpg")
    .field("consent", "1")
    .expect(200);
  return res.body.data.id as number;
}
const balance = async (userId: number) => (await s.services.credits.balance(userId)).points;
const workflowOf = async (taskId: number) => (await s.db.gpuRun.findMany({ where: { taskId } })).map((r) => r.workflow);

describe("fast or best on the comfyui engine", () => {
  it("quotes each tier's price; a fast clip runs the few-step workflow at its price, and its extension stays fast", async () => {
    const i2v = await quote({ type: "video", mode: "image_to_video", resolution: "480P", duration: 5 });
    // best is Wan 2.2 A14B (heavy: 3 per block), fast its 4-step twin (light: 1)
    expect(i2v).toMatchObject({ points: 3, tier: "full" });
    expect(i2v.tiers).toEqual([
      { tier: "full", points: 3, available: true },
      { tier: "fast", points: 1, available: true },
    ]);
    expect(await quote({ type: "video", mode: "image_to_video", resolution: "720P", duration: 10, tier: "fast" })).toMatchObject({ points: 4, tier: "fast" });
    // text to video has both; video to video only best, so no choice
    expect((await quote({ type: "video", mode: "text_to_video", resolution: "480P", duration: 5 })).tiers.map((o: { tier: string }) => o.tier)).toEqual([
      "full",
      "fast",
    ]);
    expect((await quote({ type: "video", mode: "video_to_video", resolution: "480P", duration: 5 })).tiers).toEqual([
      { tier: "full", points: 1, available: true },
    ]);

    const u = await person(20);
    const image_id = await upload(u.token);
    const clip = await post(u.token, "picVideoSubmit", { image_id, duration: 2, resolution: "480P", tier: "fast", idempotency_key: "fast-1" }).expect(200);
    expect(clip.body.data.cost).toBe(1);
    expect(await balance(u.userId)).toBe(19);
    expect((await waitForTask(s, clip.body.data.id, 60_000)).status).toBe("succeeded");
    expect(await workflowOf(clip.body.data.id)).toEqual(["wan22-i2v-14b-fast"]);
    // the prompt ComfyUI ran sampled 4 steps at CFG 1 through the distillation LoRA
    const ran = fake.recorded.prompts.at(-1)?.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
    expect(
      Object.values(ran)
        .filter((n) => n.class_type === "KSamplerAdvanced")
        .map((n) => [n.inputs.steps, n.inputs.cfg]),
    ).toEqual([
      [4, 1],
      [4, 1],
    ]);

    // the extension keeps the clip's tier and its price; asked for best, it runs the best workflow at best's price
    const fastQuote = (await post(u.token, "followUpPoints", { source_id: clip.body.data.id, kind: "extend", duration: 3 }).expect(200)).body.data;
    const bestQuote = (await post(u.token, "followUpPoints", { source_id: clip.body.data.id, kind: "extend", duration: 3, tier: "full" }).expect(200)).body
      .data;
    expect([fastQuote.points, bestQuote.points]).toEqual([1, 3]);
    const ext = await post(u.token, "followUpSubmit", { source_id: clip.body.data.id, kind: "extend", duration: 3, idempotency_key: "fast-ext" }).expect(200);
    expect((await waitForTask(s, ext.body.data.id, 60_000)).status).toBe("succeeded");
    expect(await workflowOf(ext.body.data.id)).toEqual(["wan22-i2v-14b-fast"]);
    expect(await balance(u.userId)).toBe(18);
  }, 120_000);

  it("a template pinned to a workflow is its tier: no choice is offered and the pin runs", async () => {
    const tpl = await s.db.template.create({
      data: {
        name: "Quick LTX",
        category: "Creative",
        suitFor: "video",
        mode: "image_to_video",
        engineParams: {},
        creditPrice: 1,
        workflow: "ltxv-distilled-i2v",
      },
    });
    expect(await quote({ type: "video", template_id: tpl.id, resolution: "480P", duration: 5 })).toMatchObject({ points: 1, tiers: [] });
  });

  it("a fast tier no server offers is refused before any charge, never run on a best workflow; best still runs", async () => {
    const u = await person(12);
    const image_id = await upload(u.token);
    const fastQuote = () => quote({ type: "video", mode: "image_to_video", resolution: "480P", duration: 5, tier: "fast" });
    const offered = async () => (await s.services.engines.status("comfyui")).workflows ?? [];
    // A14B's fast workflow withdrawn (a distillation LoRA gone): the fast tier falls to the next fast workflow
    fake.removeModel("loras", "wan2.2_i2v_lightx2v_4steps_lora_v1_low_noise.safetensors");
    await expect.poll(offered, { timeout: 20_000 }).not.toContain("wan22-i2v-14b-fast");
    expect(await fastQuote()).toMatchObject({ available: true, tier: "fast", points: 1 });
    const next = await post(u.token, "picVideoSubmit", { image_id, duration: 2, tier: "fast", idempotency_key: "fast-next" }).expect(200);
    expect((await waitForTask(s, next.body.data.id, 60_000)).status).toBe("succeeded");
    const [ran] = await workflowOf(next.body.data.id);
    expect(["wan22-ti2v-5b-i2v-fast", "ltxv-distilled-i2v"]).toContain(ran);
    expect(await balance(u.userId)).toBe(11);
    // every fast image-to-video workflow withdrawn: refused, never run on a best one
    fake.removeModel("loras", "Wan22_TI2V_5B_Turbo_lora_rank_64_fp16.safetensors");
    fake.removeModel("checkpoints", "ltxv-2b-0.9.6-distilled-04-25.safetensors");
    await expect.poll(offered, { timeout: 20_000 }).not.toContain(ran);
    const q = await fastQuote();
    expect(q.available).toBe(false);
    expect(q.tiers).toEqual([
      { tier: "full", points: 3, available: true },
      { tier: "fast", points: expect.any(Number), available: false },
    ]);
    const refused = await post(u.token, "picVideoSubmit", { image_id, duration: 5, tier: "fast", idempotency_key: "fast-none" });
    expect(refused.status).toBe(503);
    expect(refused.body.msg).toBe(MSG.fastUnavailable);
    expect(await balance(u.userId)).toBe(11);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(1);
    await post(u.token, "picVideoSubmit", { image_id, duration: 5, idempotency_key: "best-still" }).expect(200);
    expect(await balance(u.userId)).toBe(8);
  }, 120_000);
});
