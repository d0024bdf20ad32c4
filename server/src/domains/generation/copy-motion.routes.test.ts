import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visitor } from "../../../../tests/db-utils.ts";
import { startFakeComfy, type FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { mediaDir, photo, video } from "../../../../tests/fixtures/media.ts";
import { grant, readSse, startComfyApp, waitForTask } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";
import { probe } from "../../storage/media-tools.ts";

/**
 * Issue 33 item 2 through the API on the comfyui engine: video to video's "copy motion" (Wan 2.2 Animate), the
 * person's photo performing their reference video's motion, besides the restyle. Submit -> progress -> stored ->
 * shown; refunded once when the render fails; refused before any charge where no server offers it and on the local
 * engine (decision 306).
 */
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
let fake: FakeComfy;
let app: Awaited<ReturnType<typeof startComfyApp>>["app"];
let worker: { stop(): Promise<void> };
let media: Awaited<ReturnType<typeof mediaDir>>;

beforeAll(async () => {
  [fake, media] = await Promise.all([startFakeComfy({ msPerStep: 1 }), mediaDir()]);
  ({ app, worker } = await startComfyApp(fake.url, path.join(media.dir, "data")));
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await app?.stop();
  await Promise.all([fake?.close(), media?.cleanup()]);
});

/** A person with credits, their photo (portrait) and their reference video (15 frames a second). */
async function personWithMedia(credits: number, seconds = 6) {
  const u = await visitor(app);
  await grant(app, u.userId, credits);
  const send = async (route: string, buf: Buffer, name: string) =>
    (await app.http.post(route).set("token", u.token).attach("file", buf, name).field("consent", "1").expect(200)).body.data.id as number;
  const image = await send("/api/ImageUpload/upload", await photo(360, 640), "me.jpg");
  const clip = await send("/api/ImageUpload/videoFromMedia", await video(media.dir, seconds), "dance.mp4");
  const submit = (body: object) =>
    app.http
      .post("/api/Generation/picVideoSubmit")
      .set("token", u.token)
      .send({ video_id: clip, duration: seconds, ...body });
  return { ...u, image, clip, submit };
}
const quote = async (body: Record<string, unknown> = {}) =>
  (
    await app.http
      .post("/api/Generation/getDurationPoints")
      .send({ type: "video", mode: "video_to_video", duration: 10, ...body })
      .expect(200)
  ).body.data;
const balance = async (userId: number) => (await app.services.credits.balance(userId)).points;

describe("copy motion: the person's photo performs their video's motion, on the comfyui engine", () => {
  it("is offered beside the restyle and runs: submit -> progress -> stored -> shown, the whole length in one prompt", async () => {
    const restyle = await quote();
    expect(restyle.controls).toContain("motion");
    const motion = await quote({ image_id: 1 });
    expect(motion).toMatchObject({ available: true });
    // Wan Animate is priced as the heavy video it is (decision 239), the restyle as a light one
    expect(motion.points).toBeGreaterThan(restyle.points);

    const u = await personWithMedia(30, 10);
    const stream = readSse(`${app.url}/api/Generation/progress`, u.token, (ev) => ev.some((e) => e.state === "succeeded"), 60_000);
    const res = await u.submit({ image_id: u.image, prompt: "dances in the kitchen" }).expect(200);
    expect(res.body.data.cost).toBe(motion.points);
    const id = res.body.data.id as number;
    const events = await stream;
    expect(events.some((e) => e.id === id && e.status === "generating")).toBe(true);

    const prompt = fake.recorded.prompts.find((p) => JSON.stringify(p.prompt).includes("dances in the kitchen"))!.prompt as Graph;
    const windows = Object.values(prompt).filter((n) => n.class_type === "WanAnimateToVideo");
    // 10 s at the video's 15 frames a second: 150 frames, three windows of 77, each going on from the one before
    expect(windows).toHaveLength(3);
    const photoNode = prompt[(windows[0].inputs.reference_image as [string, number])[0]];
    const uploaded = await sharp(fake.inputFile(String(photoNode.inputs.image))).metadata();
    expect([uploaded.width, uploaded.height]).toEqual([360, 640]);

    const d = (await app.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", u.token).expect(200)).body.data;
    expect(d).toMatchObject({ status: "generated successfully", action: "video_to_video", engine: "comfyui", label: "AI" });
    expect(d.settings).toMatchObject({ image_id: u.image, video_id: u.clip });
    const file = path.join(media.dir, `out-${id}.mp4`);
    await fs.writeFile(file, Buffer.from(await (await fetch(new URL(d.video_url, app.url))).arrayBuffer()));
    // the photo's shape, as long as the reference video
    const out = await probe(file);
    expect([out.video?.width, out.video?.height]).toEqual([480, 848]);
    expect(out.durationSec).toBeCloseTo(10, 0);
    const task = await app.db.generationTask.findUniqueOrThrow({ where: { id } });
    expect((task.runs as { workflow: string }[])[0].workflow).toBe("wan22-animate-14b");
  }, 90_000);

  it("refunds exactly once when the render fails", async () => {
    const u = await personWithMedia(30, 4);
    fake.state.failNext = 10;
    try {
      const res = await u.submit({ image_id: u.image }).expect(200);
      expect(await balance(u.userId)).toBe(30 - res.body.data.cost);
      const task = await waitForTask(app, res.body.data.id, 60_000);
      expect([task.status, task.error]).toEqual(["failed", expect.stringMatching(/CUDA out of memory/)]);
      expect(await app.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(1);
      expect(await balance(u.userId)).toBe(30);
    } finally {
      fake.state.failNext = 0;
    }
  }, 90_000);

  it("is refused before any charge on the local engine and where no server has the model; a video is no photo", async () => {
    // the failed render before left the workflow refused on the server until its next check (decision 236)
    await expect.poll(async () => (await quote()).controls, { timeout: 10_000 }).toContain("motion");
    const u = await personWithMedia(10, 4);
    expect((await u.submit({ image_id: u.clip })).status).toBe(404);
    const local = await app.db.template.create({
      data: { name: "Local look", category: "Creative", suitFor: "video", mode: "video_to_video", engine: "local", engineParams: {}, creditPrice: 1 },
    });
    expect((await quote({ template_id: local.id })).controls).not.toContain("motion");
    expect((await quote({ template_id: local.id, image_id: 1 })).available).toBe(false);
    const localRes = await u.submit({ template_id: local.id, image_id: u.image });
    expect([localRes.status, localRes.body.msg]).toEqual([503, MSG.motionUnavailable]);
    // a template pinned to the restyle cannot take a photo: bad input for it, whatever servers offer (decision 315)
    const pinned = await app.db.template.create({
      data: { name: "Restyle", category: "Creative", suitFor: "video", mode: "video_to_video", engineParams: {}, creditPrice: 1, workflow: "sdxl-v2v" },
    });
    const withPhoto = await u.submit({ template_id: pinned.id, image_id: u.image });
    expect([withPhoto.status, withPhoto.body.msg]).toEqual([400, MSG.templateTakesNoMotion]);
    fake.removeModel("diffusion_models", "wan2.2_animate_14B_bf16.safetensors");
    await expect.poll(async () => (await quote()).controls, { timeout: 10_000 }).not.toContain("motion");
    expect((await quote({ image_id: 1 })).available).toBe(false);
    const res = await u.submit({ image_id: u.image });
    expect([res.status, res.body.msg]).toEqual([503, MSG.motionUnavailable]);
    // the restyle still runs there
    expect((await quote()).available).toBe(true);
    expect(await balance(u.userId)).toBe(10);
    expect(await app.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
  }, 60_000);
});
