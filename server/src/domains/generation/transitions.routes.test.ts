import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { comfyStackForFile, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import { visitor } from "../../../../tests/db-utils.ts";
import type { FakeComfy } from "../../../../tests/fixtures/fake-comfyui.ts";
import { photo, video } from "../../../../tests/fixtures/media.ts";
import { grant, readSse, waitForTask } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";
import { probe } from "../../storage/media-tools.ts";

/**
 * Issue 33 items 3 and 4 through the API on the comfyui engine: a transition between two photos (Wan 2.2 first and
 * last frame) and camera moves (Wan 2.2 Fun camera), each submit -> progress -> stored -> shown; refused before any
 * charge where no server offers the workflow (and on the local engine); refunded once when the render fails.
 */
type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
let fake: FakeComfy;
let s: ComfyStack["s"];
let media: ComfyStack["media"];
comfyStackForFile((stack) => ({ fake, s, media } = stack));

async function person(credits = 20) {
  const u = await visitor(s);
  await grant(s, u.userId, credits);
  return u;
}
const upload = async (token: string, p: string, buf: Buffer, name: string) =>
  (await s.http.post(p).set("token", token).attach("file", buf, name).field("consent", "1").expect(200)).body.data.id as number;
const quote = async (body: Record<string, unknown>) =>
  (
    await s.http
      .post("/api/Generation/getDurationPoints")
      .send({ type: "video", mode: "image_to_video", duration: 1, ...body })
      .expect(200)
  ).body.data;
const promptOf = (text: string) => fake.recorded.prompts.find((p) => JSON.stringify(p.prompt).includes(text))!.prompt as Graph;
const node = (g: Graph, cls: string) => Object.values(g).find((n) => n.class_type === cls)!;
const balance = async (userId: number) => (await s.services.credits.balance(userId)).points;

describe("a transition between two photos and camera moves on the comfyui engine", () => {
  it("the studio is offered both, and each runs: submit -> progress -> stored -> shown with its settings", async () => {
    const plain = await quote({});
    expect(plain.controls).toEqual(expect.arrayContaining(["end_image", "camera"]));
    // each priced by the workflow that will run it (decision 239), and never both at once
    const transition = await quote({ end_image_id: 1 });
    const camera = await quote({ camera: "zoom_in" });
    expect(transition).toMatchObject({ available: true });
    expect(transition.controls).toContain("end_image");
    expect(transition.controls).not.toContain("camera");
    expect(camera.controls).not.toContain("end_image");

    const u = await person();
    const first = await upload(u.token, "/api/ImageUpload/upload", await photo(640, 360), "first.jpg");
    const last = await upload(u.token, "/api/ImageUpload/upload", await photo(360, 640), "last.jpg");
    const jobs = [
      { body: { image_id: first, end_image_id: last, prompt: "walks from one to the other", duration: 1 }, cost: transition.points },
      { body: { image_id: first, camera: "pan_left", prompt: "the camera pans", duration: 1 }, cost: camera.points },
    ];
    const stream = readSse(`${s.url}/api/Generation/progress`, u.token, (ev) => ev.filter((e) => e.state === "succeeded").length >= 2, 60_000);
    const ids: number[] = [];
    for (const j of jobs) {
      const res = await s.http.post("/api/Generation/picVideoSubmit").set("token", u.token).send(j.body).expect(200);
      expect(res.body.data.cost).toBe(j.cost);
      ids.push(res.body.data.id);
    }
    const events = await stream;
    for (const id of ids) expect(events.some((e) => e.id === id && e.status === "generating")).toBe(true);

    // the transition: both photos uploaded under names of their own, the first as the first frame, the second as the last
    const flf = promptOf("walks from one to the other");
    const frames = node(flf, "WanFirstLastFrameToVideo");
    const uploaded = async (link: unknown) => sharp(fake.inputFile(String(flf[(link as [string, number])[0]].inputs.image))).metadata();
    const [start, end] = await Promise.all([uploaded(frames.inputs.start_image), uploaded(frames.inputs.end_image)]);
    expect([start.width, start.height, end.width, end.height]).toEqual([640, 360, 360, 640]);
    // the camera move as ComfyUI's stock pose
    expect(node(promptOf("the camera pans"), "WanCameraEmbedding").inputs.camera_pose).toBe("Pan Left");

    for (const [i, id] of ids.entries()) {
      const d = (await s.http.get(`/api/Generation/picVideoSubmitDetails?id=${id}`).set("token", u.token).expect(200)).body.data;
      expect(d).toMatchObject({ status: "generated successfully", action: "image_to_video", engine: "comfyui", label: "AI" });
      expect(d.settings).toMatchObject(i === 0 ? { image_id: first, end_image_id: last } : { image_id: first, camera: "pan_left" });
      const file = path.join(media.dir, `out-${id}.mp4`);
      await fs.writeFile(file, Buffer.from(await (await fetch(new URL(d.video_url, s.url))).arrayBuffer()));
      expect((await probe(file)).video?.width).toBe(848);
    }
    const runs = await s.db.generationTask.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } });
    expect(runs.map((t) => (t.runs as { workflow: string }[])[0].workflow)).toEqual(["wan22-flf2v-14b", "wan22-fun-camera-14b"]);
  }, 90_000);

  it("bad input is refused with 4xx and charges nothing: a video as the second photo, an unknown move, a move with audio", async () => {
    const u = await person(5);
    const image = await upload(u.token, "/api/ImageUpload/upload", await photo(320, 240), "p.jpg");
    const clip = await upload(u.token, "/api/ImageUpload/videoFromMedia", await video(media.dir, 4), "v.mp4");
    const send = (body: object) =>
      s.http
        .post("/api/Generation/picVideoSubmit")
        .set("token", u.token)
        .send({ image_id: image, duration: 1, ...body });
    expect((await send({ end_image_id: clip })).status).toBe(404);
    const unknown = await send({ camera: "orbit" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toMatch(/camera must be one of pan_left/);
    const withVideo = await send({ image_id: undefined, video_id: clip, camera: "zoom_in" });
    expect([withVideo.status, withVideo.body.msg]).toEqual([400, MSG.photoOnlyExtras]);
    expect(await balance(u.userId)).toBe(5);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
  }, 30_000);

  it("refunds exactly once when the render fails, for a transition and for a camera move", async () => {
    const u = await person(20);
    const first = await upload(u.token, "/api/ImageUpload/upload", await photo(320, 240), "a.jpg");
    const last = await upload(u.token, "/api/ImageUpload/upload", await photo(240, 320), "b.jpg");
    fake.state.failNext = 10;
    try {
      for (const [i, extra] of [{ end_image_id: last }, { camera: "zoom_out" }].entries()) {
        const res = await s.http
          .post("/api/Generation/picVideoSubmit")
          .set("token", u.token)
          .send({ image_id: first, duration: 1, ...extra })
          .expect(200);
        expect(await balance(u.userId)).toBe(20 - res.body.data.cost);
        const task = await waitForTask(s, res.body.data.id, 60_000);
        expect(task.status).toBe("failed");
        expect(task.error).toMatch(/CUDA out of memory/);
        expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation_refund" } })).toBe(i + 1);
        expect(await balance(u.userId)).toBe(20);
      }
    } finally {
      fake.state.failNext = 0;
    }
  }, 90_000);

  it("refused before any charge where no server offers the workflow, and on the local engine, which says so", async () => {
    // the failed renders before left both workflows refused on the server until its next check (decision 236)
    await expect.poll(async () => (await quote({})).controls, { timeout: 10_000 }).toEqual(expect.arrayContaining(["end_image", "camera"]));
    const u = await person(10);
    const first = await upload(u.token, "/api/ImageUpload/upload", await photo(320, 240), "a.jpg");
    const last = await upload(u.token, "/api/ImageUpload/upload", await photo(240, 320), "b.jpg");
    const submit = (body: object) =>
      s.http
        .post("/api/Generation/picVideoSubmit")
        .set("token", u.token)
        .send({ image_id: first, duration: 1, ...body });
    // a local template: the draft renderer makes neither, and its studio does not offer them
    const local = await s.db.template.create({
      data: { name: "Local", category: "Creative", suitFor: "image", mode: "image_to_video", engine: "local", engineParams: {}, creditPrice: 1 },
    });
    expect((await quote({ template_id: local.id })).controls).not.toEqual(expect.arrayContaining(["end_image"]));
    expect((await quote({ template_id: local.id, camera: "zoom_in" })).available).toBe(false);
    const localRes = await submit({ template_id: local.id, end_image_id: last });
    expect([localRes.status, localRes.body.msg]).toEqual([503, MSG.transitionUnavailable]);
    // a template pinned to plain image to video cannot take a camera move: bad input for it, whatever servers offer (decision 315)
    const pinned = await s.db.template.create({
      data: { name: "Plain", category: "Creative", suitFor: "image", mode: "image_to_video", engineParams: {}, creditPrice: 1, workflow: "wan22-i2v-14b" },
    });
    const moved = await submit({ template_id: pinned.id, camera: "zoom_out" });
    expect([moved.status, moved.body.msg]).toEqual([400, MSG.templateTakesNoCamera]);
    // a template that asks for its own move (engineParams.camera) runs while a server makes it
    const moving = await s.db.template.create({
      data: { name: "Zoom", category: "Creative", suitFor: "image", mode: "image_to_video", engineParams: { camera: "zoom_in" }, creditPrice: 1 },
    });
    expect(await quote({ template_id: moving.id })).toMatchObject({ available: true, controls: expect.arrayContaining(["camera"]) });
    // the camera models leave the only server: the move is offered nowhere now
    fake.removeModel("diffusion_models", "wan2.2_fun_camera_high_noise_14B_fp8_scaled.safetensors");
    await expect.poll(async () => (await quote({})).controls, { timeout: 10_000 }).not.toContain("camera");
    expect((await quote({ camera: "zoom_in" })).available).toBe(false);
    const res = await submit({ camera: "zoom_in" });
    expect([res.status, res.body.msg]).toEqual([503, MSG.cameraUnavailable]);
    // the template is listed unavailable and refused the same way
    expect((await quote({ template_id: moving.id })).available).toBe(false);
    const listed = (await s.http.get("/api/Index/getTemplatesList").expect(200)).body.data.list as { id: number; available: boolean }[];
    expect(listed.find((t) => t.id === moving.id)?.available).toBe(false);
    expect((await submit({ template_id: moving.id })).status).toBe(503);
    // the transition still runs there (polled: on a loaded machine the server's next check can land between the two reads)
    await expect.poll(async () => (await quote({})).controls, { timeout: 10_000 }).toContain("end_image");
    expect(await balance(u.userId)).toBe(10);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(0);
  }, 60_000);
});
