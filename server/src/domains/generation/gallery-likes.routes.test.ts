import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationMode } from "../../db/generated/client.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV, grant } from "../../../../tests/generation-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";

/** Issue 32 items 1 and 2: likes, popular this week, filters, an item's settings, and remixes (docs/decisions/299). */
let t: TestApp;
let moderator: StaffLogin;
beforeAll(async () => {
  t = await createTestApp(GENERATION_TEST_ENV);
  moderator = await staffMember(t, ["moderator"]);
}, 60_000);
afterAll(() => t.close());

type Item = { id: number; likes: number; liked: number; remixes: number; nickname: string };

/** A finished creation of `userId`, shared in the gallery, made with a prompt and controls from the owner's photo. */
async function shared(userId: number, extra: { mode?: GenerationMode; templateId?: number; createdAt?: Date } = {}) {
  return t.db.generationTask.create({
    data: {
      userId,
      mode: extra.mode ?? "image_to_video",
      templateId: extra.templateId,
      engine: "local",
      status: "succeeded",
      cost: 1,
      isPublic: true,
      resolution: "720P",
      durationSec: 5,
      input: {
        prompt: "slow turn to camera",
        negativePrompt: "blur",
        seed: 4242,
        strength: 0.4,
        aspect: "9:16",
        imageKey: `uploads/${userId}/face.jpg`,
        params: {},
        sources: { image_id: 77 },
      },
      outputKey: `results/${userId}/v.mp4`,
      posterKey: `results/${userId}/p.jpg`,
      ...(extra.createdAt ? { createdAt: extra.createdAt } : {}),
    },
  });
}
const like = (token: string, id: number) => t.http.post("/api/Gallery/like").set("token", token).send({ id });
const unlike = (token: string, id: number) => t.http.post("/api/Gallery/unlike").set("token", token).send({ id });
const page = async (query: string, token?: string) => {
  const req = t.http.get(`/api/Index/gallery${query}`);
  if (token) req.set("token", token);
  return (await req.expect(200)).body.data as { list: Item[]; total: number };
};
const item = (id: number) => t.http.get(`/api/Index/galleryItem?id=${id}`);
const likesOf = async (id: number) => {
  const row = await t.db.generationTask.findUniqueOrThrow({ where: { id }, select: { likeCount: true, weekLikes: true } });
  return { ...row, rows: await t.db.galleryLike.count({ where: { taskId: id } }) };
};

describe("likes", () => {
  it("a guest likes once and unlikes; the page shows the count and the caller's like; no login is 401", async () => {
    const owner = await visitor(t);
    const fan = await visitor(t);
    const x = await shared(owner.userId);
    expect((await like(fan.token, x.id).expect(200)).body.data).toEqual({ id: x.id, likes: 1, liked: 1 });
    expect((await like(fan.token, x.id).expect(200)).body.data).toEqual({ id: x.id, likes: 1, liked: 1 });
    expect((await page("?limit=50", fan.token)).list.find((i) => i.id === x.id)).toMatchObject({ likes: 1, liked: 1 });
    expect((await page("?limit=50")).list.find((i) => i.id === x.id)).toMatchObject({ likes: 1, liked: 0 });
    expect((await unlike(fan.token, x.id).expect(200)).body.data).toEqual({ id: x.id, likes: 0, liked: 0 });
    expect((await unlike(fan.token, x.id).expect(200)).body.data).toEqual({ id: x.id, likes: 0, liked: 0 });
    await t.http.post("/api/Gallery/like").send({ id: x.id }).expect(401);
    expect((await t.http.post("/api/Gallery/like").set("token", fan.token).send({ id: "x" }).expect(400)).body.msg).toBe("id must be a gallery item");
    expect(await likesOf(x.id)).toEqual({ likeCount: 0, weekLikes: 0, rows: 0 });
  });

  it("20 clicks at once from one account count one like; 20 accounts at once count 20; 20 unlikes at once leave 0", async () => {
    const owner = await visitor(t);
    const x = await shared(owner.userId);
    const fan = await visitor(t);
    await Promise.all(Array.from({ length: 20 }, () => like(fan.token, x.id).expect(200)));
    expect(await likesOf(x.id)).toEqual({ likeCount: 1, weekLikes: 1, rows: 1 });

    const y = await shared(owner.userId);
    const fans = await Promise.all(Array.from({ length: 20 }, () => visitor(t)));
    await Promise.all(fans.map((f) => like(f.token, y.id).expect(200)));
    expect(await likesOf(y.id)).toEqual({ likeCount: 20, weekLikes: 20, rows: 20 });
    await Promise.all(fans.flatMap((f) => [unlike(f.token, y.id).expect(200), unlike(f.token, y.id).expect(200)]));
    expect(await likesOf(y.id)).toEqual({ likeCount: 0, weekLikes: 0, rows: 0 });
  });

  it("one account cannot take back another's like", async () => {
    const owner = await visitor(t);
    const a = await visitor(t);
    const b = await visitor(t);
    const x = await shared(owner.userId);
    await like(a.token, x.id).expect(200);
    expect((await unlike(b.token, x.id).expect(200)).body.data).toEqual({ id: x.id, likes: 1, liked: 0 });
    expect(await t.db.galleryLike.findUnique({ where: { taskId_userId: { taskId: x.id, userId: a.userId } } })).not.toBeNull();
    expect(await likesOf(x.id)).toEqual({ likeCount: 1, weekLikes: 1, rows: 1 });
  });

  it("a private, unfinished or missing item cannot be liked (404) and nothing is written", async () => {
    const owner = await visitor(t);
    const fan = await visitor(t);
    const x = await shared(owner.userId);
    await t.db.generationTask.update({ where: { id: x.id }, data: { isPublic: false } });
    expect((await like(fan.token, x.id).expect(404)).body.msg).toBe("The access resource does not exist");
    await like(fan.token, 999_999).expect(404);
    expect(await likesOf(x.id)).toEqual({ likeCount: 0, weekLikes: 0, rows: 0 });
  });

  it("a banned account cannot like: refused like every other surface, and its like is not written", async () => {
    const owner = await visitor(t);
    const fan = await visitor(t);
    const x = await shared(owner.userId);
    await t.http.post(`/admin/api/users/${fan.userId}/ban`).set("token", moderator.token).send({ reason: "Abuse" }).expect(200);
    const res = await like(fan.token, x.id);
    expect([401, 403]).toContain(res.status);
    expect(await likesOf(x.id)).toEqual({ likeCount: 0, weekLikes: 0, rows: 0 });
  });

  it("a taken-down item leaves new and popular at once, and cannot be liked or opened", async () => {
    const owner = await visitor(t);
    const fans = await Promise.all(Array.from({ length: 3 }, () => visitor(t)));
    const x = await shared(owner.userId);
    await Promise.all(fans.map((f) => like(f.token, x.id).expect(200)));
    expect((await page("?sort=popular&limit=50")).list.map((i) => i.id)).toContain(x.id);
    const report = (await t.http.post("/api/report").send({ target_type: "task", target_id: x.id, reason: "non_consensual" }).expect(200)).body.data.id;
    await t.http.post(`/admin/api/reports/${report}/takedown`).set("token", moderator.token).send({ reason: "Confirmed" }).expect(200);
    for (const sort of ["new", "popular"]) expect((await page(`?sort=${sort}&limit=50`)).list.map((i) => i.id)).not.toContain(x.id);
    await like(fans[0].token, x.id).expect(404);
    await unlike(fans[0].token, x.id).expect(404);
    await item(x.id).expect(404);
  });
});

describe("sort and filter", () => {
  it("popular this week orders by this week's likes, then newest; filters by mode and template", async () => {
    const owner = await visitor(t);
    const tpl = await t.db.template.create({
      data: { name: "Gallery filter", category: "Creative", suitFor: "image", mode: "text_to_image", engineParams: {}, creditPrice: 1 },
    });
    const low = await shared(owner.userId, { mode: "text_to_image", templateId: tpl.id });
    const high = await shared(owner.userId, { mode: "text_to_image", templateId: tpl.id });
    const video = await shared(owner.userId);
    const fans = await Promise.all(Array.from({ length: 3 }, () => visitor(t)));
    await Promise.all(fans.map((f) => like(f.token, high.id).expect(200)));
    await like(fans[0].token, low.id).expect(200);
    // last week's likes rank after any of this week's
    await t.db.$executeRaw`UPDATE generation_tasks SET like_count = 50, week_likes = 50,
      like_week = ((date_trunc('week', now() AT TIME ZONE 'UTC')::date - DATE '1970-01-05') / 7) - 1 WHERE id = ${video.id}`;

    const popular = (await page("?sort=popular&limit=50")).list.map((i) => i.id);
    expect(popular.indexOf(high.id)).toBeLessThan(popular.indexOf(low.id));
    expect(popular.indexOf(low.id)).toBeLessThan(popular.indexOf(video.id));

    const byTemplate = await page(`?template_id=${tpl.id}&sort=popular`);
    expect(byTemplate.list.map((i) => i.id)).toEqual([high.id, low.id]);
    expect(byTemplate.total).toBe(2);
    const images = (await page("?mode=text_to_image&limit=50")).list.map((i) => i.id);
    expect(images).toContain(low.id);
    expect(images).not.toContain(video.id);
    expect((await t.http.get("/api/Index/gallery?sort=best").expect(400)).body.msg).toBe("sort must be new or popular");
    expect((await t.http.get("/api/Index/gallery?mode=painting").expect(400)).body.msg).toContain("mode must be one of");
  });
});

describe("an item and its remixes", () => {
  it("shows the prompt and settings, never the source photo or the owner beyond the display name", async () => {
    const owner = await visitor(t);
    await t.db.user.update({ where: { id: owner.userId }, data: { nickname: "Mira", email: "mira@example.com" } });
    const x = await shared(owner.userId);
    const body = (await item(x.id).expect(200)).body.data;
    expect(body).toMatchObject({
      id: x.id,
      nickname: "Mira",
      likes: 0,
      remixes: 0,
      remix_of: null,
      settings: { prompt: "slow turn to camera", negative_prompt: "blur", seed: 4242, strength: 0.4, aspect: "9:16", resolution: "720P", duration: 5 },
    });
    const { uuid } = await t.db.user.findUniqueOrThrow({ where: { id: owner.userId } });
    const text = JSON.stringify(body);
    for (const secret of ["face.jpg", "uploads/", "mira@example.com", uuid]) expect(text).not.toContain(secret);
    for (const key of ["user_id", "userId", "uuid", "email", "cost", "engine", "input"]) expect(body).not.toHaveProperty(key);
    for (const key of ["image_id", "video_id", "audio_id", "role_id"]) expect(body.settings).not.toHaveProperty(key);
    expect((await t.http.get("/api/Index/galleryItem?id=0").expect(400)).body.msg).toBe("id must be a gallery item");
  });

  it("a remix records its source, which counts it once per request; the remix credits the source; a hidden source is refused", async () => {
    const owner = await visitor(t);
    await t.db.user.update({ where: { id: owner.userId }, data: { nickname: "Source" } });
    const source = await shared(owner.userId, { mode: "text_to_image" });
    const fan = await visitor(t);
    await grant(t, fan.userId, 50);
    const submit = (key: string, remix_of: number) =>
      t.http.post("/api/Generation/textPicSubmit").set("token", fan.token).send({ prompt: "slow turn to camera", seed: 4242, remix_of, idempotency_key: key });
    const [a, again] = await Promise.all([submit("remix-1", source.id).expect(200), submit("remix-1", source.id).expect(200)]);
    expect(again.body.data.id).toBe(a.body.data.id);
    const made = await t.db.generationTask.findUniqueOrThrow({ where: { id: a.body.data.id } });
    expect(made.remixOfId).toBe(source.id);
    expect((await item(source.id).expect(200)).body.data.remixes).toBe(1);

    // the remix, once finished and shared, credits its source by display name
    await t.db.generationTask.update({ where: { id: made.id }, data: { status: "succeeded", isPublic: true, outputKey: `results/${fan.userId}/i.png` } });
    expect((await item(made.id).expect(200)).body.data.remix_of).toEqual({ id: source.id, nickname: "Source" });

    // a source taken out of the gallery is not remixed, and nothing is charged
    await t.db.generationTask.update({ where: { id: source.id }, data: { isPublic: false } });
    const before = (await t.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points;
    await submit("remix-2", source.id).expect(404);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: fan.userId } })).points).toBe(before);
    expect(await t.db.generationTask.count({ where: { userId: fan.userId } })).toBe(1);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: source.id } })).remixCount).toBe(1);
    expect((await item(made.id).expect(200)).body.data.remix_of).toBeNull();
  });
});
