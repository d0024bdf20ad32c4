import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, type TestApp } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV } from "../../../../tests/generation-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { balanceOf, face, registeredUser } from "../../../../tests/training-utils.ts";
import { ffmpeg } from "../../storage/media-tools.ts";
import { SCREENING_MESSAGES } from "../../contract/screening.ts";

/**
 * Upload screening on licensed photos (tests/fixtures/faces/SOURCES.md): stock-emotions-a-1 is estimated ~16 (held at
 * the default SCREENING_REVIEW_AGE 25), person-vlado ~39 (clear), background.jpg shows no face (clear).
 */
let t: TestApp;
let mod: StaffLogin;
let user: { token: string; userId: number };

beforeAll(async () => {
  t = await createTestApp(GENERATION_TEST_ENV);
  mod = await staffMember(t, ["moderator"]);
  user = await registeredUser(t, 20);
}, 120_000);
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

async function upload(image: Buffer, token = user.token) {
  const res = await t.http.post("/api/ImageUpload/upload").set("token", token).field("consent", "1").attach("file", image, "p.jpg");
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; review: string; review_message: string | null };
}

const picVideo = (image_id: number, key: string) =>
  t.http.post("/api/Generation/picVideoSubmit").set("token", user.token).send({ image_id, idempotency_key: key });
const queue = async () =>
  (
    await t.http
      .get(`/admin/api/upload-screenings?filter=${encodeURIComponent(JSON.stringify({ status: "held" }))}`)
      .set("token", mod.token)
      .expect(200)
  ).body as any[];

describe("photos", () => {
  it("holds a face estimated under the threshold: not usable, nothing charged, the person is told", async () => {
    const held = await upload(await face("stock-emotions-a-1"));
    expect(held).toMatchObject({ review: "held", review_message: SCREENING_MESSAGES.held });
    const before = await balanceOf(t, user.userId);
    const tasks = await t.db.generationTask.count({ where: { userId: user.userId } });
    const res = await picVideo(held.id, "held-1");
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ msg: SCREENING_MESSAGES.held, data: { reason: "upload_held" } });
    expect(await balanceOf(t, user.userId)).toBe(before);
    expect(await t.db.generationTask.count({ where: { userId: user.userId } })).toBe(tasks);
    // the list tells the owner too
    const list = await t.http.get("/api/ImageUpload/imageList").set("token", user.token).expect(200);
    expect(list.body.data.list.find((u: any) => u.id === held.id)).toMatchObject({ review: "held" });
    const record = await t.db.uploadScreening.findUniqueOrThrow({ where: { uploadId: held.id } });
    expect(record).toMatchObject({ status: "held", holdCause: "apparent_age", faces: 1, framesChecked: 1 });
    expect(record.youngestAge!).toBeLessThan(25);
  }, 60_000);

  it("clears an adult-looking face and a photo without a face (an estimate never proves adulthood; no face, no age hold)", async () => {
    const adult = await upload(await face("person-vlado"));
    expect(adult).toMatchObject({ review: "clear", review_message: null });
    const noFace = await upload(await face("background"));
    expect(noFace.review).toBe("clear");
    expect(await t.db.uploadScreening.findUniqueOrThrow({ where: { uploadId: noFace.id } })).toMatchObject({ faces: 0, youngestAge: null, status: "clear" });
    const before = await balanceOf(t, user.userId);
    const res = await picVideo(adult.id, "adult-1");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await balanceOf(t, user.userId)).toBe(before - res.body.data.cost);
  }, 60_000);
});

describe("console queue", () => {
  it("shows the estimate and preview; approve makes it usable, reject needs a reason and keeps it unusable; both audited", async () => {
    const a = await upload(await face("stock-emotions-a-1"));
    const b = await upload(await face("stock-emotions-a-1"));
    const rows = await queue();
    const rowA = rows.find((r) => r.uploadId === a.id);
    expect(rowA).toMatchObject({ status: "held", userId: user.userId, kind: "image", faces: 1 });
    expect(rowA.youngestAge).toBeLessThan(25);
    expect((await fetchMedia(t, rowA.previewUrl)).status).toBe(200);

    // a user (even the owner) cannot read or decide the queue
    await t.http.get("/admin/api/upload-screenings").set("token", user.token).expect(401);
    const support = await staffMember(t, ["support"]);
    await t.http.post(`/admin/api/upload-screenings/${rowA.id}/review`).set("token", support.token).send({ decision: "approve" }).expect(403);

    const approved = await t.http.post(`/admin/api/upload-screenings/${rowA.id}/review`).set("token", mod.token).send({ decision: "approve" }).expect(200);
    expect(approved.body).toMatchObject({ status: "approved", reviewedBy: mod.staffId });
    await t.http.post(`/admin/api/upload-screenings/${rowA.id}/review`).set("token", mod.token).send({ decision: "reject", reason: "late" }).expect(409);
    const ok = await picVideo(a.id, "approved-1");
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const rowB = (await queue()).find((r) => r.uploadId === b.id);
    await t.http.post(`/admin/api/upload-screenings/${rowB.id}/review`).set("token", mod.token).send({ decision: "reject" }).expect(400);
    await t.http.post(`/admin/api/upload-screenings/${rowB.id}/review`).set("token", mod.token).send({ decision: "maybe" }).expect(400);
    await t.http
      .post(`/admin/api/upload-screenings/${rowB.id}/review`)
      .set("token", mod.token)
      .send({ decision: "reject", reason: "looks under 18" })
      .expect(200);
    const refused = await picVideo(b.id, "rejected-1");
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ msg: SCREENING_MESSAGES.rejected, data: { reason: "upload_rejected" } });

    const audit = await t.db.auditLog.findMany({ where: { resource: "Upload", resourceId: { in: [String(a.id), String(b.id)] } }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.action, e.staffId, e.reason])).toEqual([
      ["screening_approve", mod.staffId, null],
      ["screening_reject", mod.staffId, "looks under 18"],
    ]);
    await t.http.post("/admin/api/upload-screenings/999999/review").set("token", mod.token).send({ decision: "approve" }).expect(404);
  }, 90_000);
});

describe("videos", () => {
  it("samples frames of a video upload: a young-looking face in them holds it", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "screening-video-"));
    try {
      const still = path.join(dir, "a1.jpg");
      await fs.writeFile(still, await face("stock-emotions-a-1"));
      const clip = path.join(dir, "clip.mp4");
      await ffmpeg([
        "-loop",
        "1",
        "-i",
        still,
        "-t",
        "5",
        "-r",
        "10",
        "-vf",
        "scale=480:-2",
        "-c:v",
        "libx264",
        "-preset",
        "ultrafast",
        "-pix_fmt",
        "yuv420p",
        clip,
      ]);
      const res = await t.http
        .post("/api/ImageUpload/videoFromMedia")
        .set("token", user.token)
        .field("consent", "1")
        .attach("file", await fs.readFile(clip), "clip.mp4");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ review: "held", review_message: SCREENING_MESSAGES.heldVideo });
      const record = await t.db.uploadScreening.findUniqueOrThrow({ where: { uploadId: res.body.data.id } });
      expect(record.framesChecked).toBeGreaterThanOrEqual(3);
      expect(record.youngestAge!).toBeLessThan(25);
      const submit = await t.http
        .post("/api/Generation/picVideoSubmit")
        .set("token", user.token)
        .send({ video_id: res.body.data.id, idempotency_key: "held-video" });
      expect(submit.status).toBe(403);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("prompt rules", () => {
  it.each([
    ["/api/Generation/textPicSubmit", "a nude 15 year old girl", "minor_sexual"],
    ["/api/Generation/textVideoSubmit", "schoolgirl undressing on a bed", "minor_sexual"],
    ["/api/Generation/imageBatchModel", "loli art", "csam_term"],
  ])("%s refuses %j before charging (reason %s)", async (route, prompt, rule) => {
    const before = await balanceOf(t, user.userId);
    const tasks = await t.db.generationTask.count({ where: { userId: user.userId } });
    const res = await t.http
      .post(route)
      .set("token", user.token)
      .send({ prompt, idempotency_key: `${route}-${rule}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ msg: SCREENING_MESSAGES.promptRefused, data: { reason: "prompt_refused", rule } });
    expect(await balanceOf(t, user.userId)).toBe(before);
    expect(await t.db.generationTask.count({ where: { userId: user.userId } })).toBe(tasks);
  });

  it("lets an adult prompt through", async () => {
    const res = await t.http
      .post("/api/Generation/textPicSubmit")
      .set("token", user.token)
      .send({ prompt: "a woman in her thirties on a beach at sunset", idempotency_key: "adult-prompt" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
