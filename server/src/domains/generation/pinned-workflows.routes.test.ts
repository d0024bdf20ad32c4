import { describe, expect, it } from "vitest";
import { comfyStackForFile, type ComfyStack } from "../../../../tests/comfyui-stack.ts";
import { visitor } from "../../../../tests/db-utils.ts";
import { photo, video } from "../../../../tests/fixtures/media.ts";
import { grant } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";

/**
 * A template pinned to a workflow (console, template edit) is refused with 400 before anything is charged, any task
 * made or any upload touched, where the request lacks what that workflow's binding needs (a second photo, a camera
 * move, the photo that copies a video's motion) or brings what it cannot take; the same request made whole is
 * charged once (decision 315).
 */
let s: ComfyStack["s"];
let media: ComfyStack["media"];
comfyStackForFile((stack) => ({ s, media } = stack));

const CREDITS = 100;

async function person() {
  const u = await visitor(s);
  await grant(s, u.userId, CREDITS);
  const send = async (route: string, buf: Buffer, name: string) =>
    (await s.http.post(route).set("token", u.token).attach("file", buf, name).field("consent", "1").expect(200)).body.data.id as number;
  const first = await send("/api/ImageUpload/upload", await photo(320, 240), "first.jpg");
  const last = await send("/api/ImageUpload/upload", await photo(240, 320), "last.jpg");
  const clip = await send("/api/ImageUpload/videoFromMedia", await video(media.dir, 4), "dance.mp4");
  const submit = (body: object, route = "/api/Generation/picVideoSubmit") =>
    s.http
      .post(route)
      .set("token", u.token)
      .send({ duration: 4, ...body });
  return { ...u, first, last, clip, submit };
}

const pinned = (workflow: string, mode: "image_to_video" | "video_to_video") =>
  s.db.template.create({
    data: { name: workflow, category: "Creative", suitFor: mode === "image_to_video" ? "image" : "video", mode, engineParams: {}, creditPrice: 1, workflow },
  });

const quote = async (body: Record<string, unknown>) =>
  (
    await s.http
      .post("/api/Generation/getDurationPoints")
      .send({ type: "video", duration: 4, ...body })
      .expect(200)
  ).body.data;

/** What a refused request must have left as it was: the balance, and no task, ledger entry or upload change. */
async function untouched(userId: number) {
  expect((await s.services.credits.balance(userId)).points).toBe(CREDITS);
  expect(await s.db.generationTask.count({ where: { userId } })).toBe(0);
  expect(await s.db.ledgerEntry.count({ where: { userId, reason: "generation" } })).toBe(0);
  expect(await s.db.upload.count({ where: { userId, state: "active" } })).toBe(3);
}

describe("a template pinned to a workflow is refused before charge what that workflow cannot make", () => {
  it("refuses each request lacking what the pinned workflow needs, many at once, then charges the whole one once", async () => {
    const [transition, copy, camera] = await Promise.all([
      pinned("wan22-flf2v-14b", "image_to_video"),
      pinned("wan22-animate-14b", "video_to_video"),
      pinned("wan22-fun-camera-14b", "image_to_video"),
    ]);
    const u = await person();
    const cases = [
      { lacking: { template_id: transition.id, image_id: u.first }, msg: MSG.templateNeedsEndImage, whole: { end_image_id: u.last } },
      { lacking: { template_id: copy.id, video_id: u.clip }, msg: MSG.templateNeedsMotion, whole: { image_id: u.first } },
      { lacking: { template_id: camera.id, image_id: u.first }, msg: MSG.templateNeedsCamera, whole: { camera: "zoom_in" } },
    ];
    for (const c of cases) {
      const answers = await Promise.all(Array.from({ length: 5 }, () => u.submit(c.lacking)));
      for (const res of answers) expect([res.status, res.body.msg]).toEqual([400, c.msg]);
    }
    await untouched(u.userId);

    // the quote says so before the submit, and prices the pinned workflow with its controls as when it is whole
    const lacking = await quote({ mode: "image_to_video", template_id: transition.id });
    const whole = await quote({ mode: "image_to_video", template_id: transition.id, end_image_id: u.last });
    expect(lacking).toMatchObject({ available: true, misfit: MSG.templateNeedsEndImage, points: whole.points, required: ["end_image"] });
    expect(lacking.controls).toEqual(whole.controls);
    expect(whole.controls).toEqual(expect.arrayContaining(["end_image", "prompt"]));
    expect(whole.misfit).toBeNull();

    // the same requests made whole: each charged once, also when sent five times at once with one key
    let spent = 0;
    for (const [i, c] of cases.entries()) {
      const body = { ...c.lacking, ...c.whole, idempotency_key: `pinned-whole-${i}` };
      const answers = await Promise.all(Array.from({ length: 5 }, () => u.submit(body)));
      for (const res of answers) expect(res.status).toBe(200);
      expect(new Set(answers.map((r) => r.body.data.id)).size).toBe(1);
      spent += answers[0].body.data.cost;
    }
    expect((await s.services.credits.balance(u.userId)).points).toBe(CREDITS - spent);
    expect(await s.db.generationTask.count({ where: { userId: u.userId } })).toBe(3);
    expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation" } })).toBe(3);
  }, 60_000);

  it("refuses what the pinned workflow cannot take, and a template used where its workflow makes nothing", async () => {
    const [plain, restyle] = await Promise.all([pinned("wan22-i2v-14b", "image_to_video"), pinned("sdxl-v2v", "video_to_video")]);
    const u = await person();
    const refused = [
      { res: await u.submit({ template_id: plain.id, image_id: u.first, end_image_id: u.last }), msg: MSG.templateTakesNoEndImage },
      { res: await u.submit({ template_id: plain.id, image_id: u.first, camera: "pan_left" }), msg: MSG.templateTakesNoCamera },
      { res: await u.submit({ template_id: restyle.id, video_id: u.clip, image_id: u.first }), msg: MSG.templateTakesNoMotion },
      // a photo template in text to video: its image-to-video workflow makes no video from words alone
      { res: await u.submit({ template_id: plain.id, prompt: "a lighthouse" }, "/api/Generation/textVideoSubmit"), msg: MSG.templateWrongKind },
    ];
    for (const r of refused) expect([r.res.status, r.res.body.msg]).toEqual([400, r.msg]);
    expect((await quote({ mode: "text_to_video", template_id: plain.id })).misfit).toBe(MSG.templateWrongKind);
    await untouched(u.userId);
    // without what it cannot take, each runs
    expect((await u.submit({ template_id: plain.id, image_id: u.first })).status).toBe(200);
    expect((await u.submit({ template_id: restyle.id, video_id: u.clip })).status).toBe(200);
    expect(await s.db.ledgerEntry.count({ where: { userId: u.userId, reason: "generation" } })).toBe(2);
  }, 60_000);
});
