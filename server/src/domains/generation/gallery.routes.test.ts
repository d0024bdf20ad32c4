import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TaskStatus } from "../../db/generated/client.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function task(userId: number, status: TaskStatus, extra: { expiresAt?: Date } = {}) {
  const done = status === "succeeded";
  return t.db.generationTask.create({
    data: {
      userId,
      mode: "image_to_video",
      engine: "local",
      status,
      cost: 1,
      input: {},
      outputKey: done ? `results/${userId}/v.mp4` : null,
      posterKey: done ? `results/${userId}/p.jpg` : null,
      ...extra,
    },
  });
}
const setPublic = (token: string, id: number, pub: 0 | 1) => t.http.post("/api/Generation/setPublic").set("token", token).send({ id, public: pub });
const gallery = async (query = "") =>
  (await t.http.get(`/api/Index/gallery${query}`).expect(200)).body.data as {
    list: { id: number; nickname: string; video_url: string; poster_url: string }[];
    total: number;
    limit: number;
  };
const galleryIds = async () => (await gallery("?limit=50")).list.map((i) => i.id);

describe("POST /api/Generation/setPublic", () => {
  it("publishes and unpublishes the owner's finished creation", async () => {
    const { token, userId } = await visitor(t);
    await t.db.user.update({ where: { id: userId }, data: { nickname: "Mira" } });
    const done = await task(userId, "succeeded");
    const res = await setPublic(token, done.id, 1).expect(200);
    expect(res.body.data).toEqual({ id: done.id, public: 1 });
    const item = (await gallery("?limit=50")).list.find((i) => i.id === done.id)!;
    expect(item.nickname).toBe("Mira");
    expect(item.video_url).toContain("/media/");
    expect(item.poster_url).toContain("/media/");
    expect(item).not.toHaveProperty("cost");
    const detail = await t.http.get(`/api/Generation/picVideoSubmitDetails?id=${done.id}`).set("token", token).expect(200);
    expect(detail.body.data.public).toBe(1);

    await setPublic(token, done.id, 0).expect(200);
    expect(await galleryIds()).not.toContain(done.id);
  });

  it("names a guest without a nickname as the app does (Guest_ and the end of the uuid), never by the row id (issue 31.7)", async () => {
    const { token, userId } = await visitor(t);
    const { uuid } = await t.db.user.update({ where: { id: userId }, data: { nickname: null } });
    const done = await task(userId, "succeeded");
    await setPublic(token, done.id, 1).expect(200);
    const item = (await gallery("?limit=50")).list.find((i) => i.id === done.id)!;
    expect(item.nickname).toBe(`Guest_${uuid.replace(/-/g, "").slice(-6)}`);
  });

  it("answers 404 for another user's creation and leaves it private", async () => {
    const owner = await visitor(t);
    const other = await visitor(t);
    const theirs = await task(owner.userId, "succeeded");
    const res = await setPublic(other.token, theirs.id, 1).expect(404);
    expect(res.body.msg).toBe("The access resource does not exist");
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: theirs.id } })).isPublic).toBe(false);
  });

  it("refuses failed, unfinished and expired tasks, and removed ones are 404", async () => {
    const { token, userId } = await visitor(t);
    for (const status of ["failed", "queued", "running"] as const) {
      const x = await task(userId, status);
      expect((await setPublic(token, x.id, 1).expect(409)).body.msg).toBe("Only a finished creation can be shared");
    }
    const lapsed = await task(userId, "succeeded", { expiresAt: new Date(Date.now() - 1000) });
    await setPublic(token, lapsed.id, 1).expect(409);
    const removed = await task(userId, "succeeded");
    await t.db.generationTask.update({ where: { id: removed.id }, data: { state: "removed" } });
    await setPublic(token, removed.id, 1).expect(404);
    expect(await t.db.generationTask.count({ where: { userId, isPublic: true } })).toBe(0);
  });

  it("validates its input and needs a login", async () => {
    const { token, userId } = await visitor(t);
    const done = await task(userId, "succeeded");
    expect((await t.http.post("/api/Generation/setPublic").set("token", token).send({ id: done.id, public: 2 }).expect(400)).body.msg).toBe(
      "public must be 0 or 1",
    );
    await t.http.post("/api/Generation/setPublic").set("token", token).send({ public: 1 }).expect(400);
    await t.http.post("/api/Generation/setPublic").send({ id: done.id, public: 1 }).expect(401);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: done.id } })).isPublic).toBe(false);
  });
});

describe("GET /api/Index/gallery", () => {
  it("shows only public, active, succeeded, unexpired creations", async () => {
    const { token, userId } = await visitor(t);
    const shared = await task(userId, "succeeded");
    const kept = await task(userId, "succeeded");
    const lapsing = await task(userId, "succeeded", { expiresAt: new Date(Date.now() + 60_000) });
    await setPublic(token, shared.id, 1).expect(200);
    await setPublic(token, lapsing.id, 1).expect(200);
    await t.db.generationTask.update({ where: { id: lapsing.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const removed = await task(userId, "succeeded");
    await setPublic(token, removed.id, 1).expect(200);
    await t.http.post("/api/Generation/deleteTask").set("token", token).send({ id: removed.id }).expect(200);

    const ids = await galleryIds();
    expect(ids).toContain(shared.id);
    expect(ids).not.toContain(kept.id);
    expect(ids).not.toContain(lapsing.id);
    expect(ids).not.toContain(removed.id);
  });

  it("an underage report takes the creation out at once, from anyone, signed in or not", async () => {
    const { token, userId } = await visitor(t);
    const shared = await task(userId, "succeeded");
    await setPublic(token, shared.id, 1).expect(200);
    expect(await galleryIds()).toContain(shared.id);
    await t.http.post("/api/report").send({ target_type: "task", target_id: shared.id, reason: "underage" }).expect(200);
    expect(await galleryIds()).not.toContain(shared.id);
    // the owner cannot bring a suspended creation back by sharing it again
    await setPublic(token, shared.id, 1).expect(404);
    expect(await galleryIds()).not.toContain(shared.id);
  });

  it("pages newest first with the SPEC page sizes", async () => {
    const { token, userId } = await visitor(t);
    for (let i = 0; i < 12; i++) await setPublic(token, (await task(userId, "succeeded")).id, 1).expect(200);
    const first = await gallery("?limit=10");
    const second = await gallery("?limit=10&page=2");
    expect(first.list).toHaveLength(10);
    expect(first.limit).toBe(10);
    expect(first.total).toBeGreaterThanOrEqual(12);
    const ids = [...first.list, ...second.list].map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await gallery()).limit).toBe(20);
    expect((await t.http.get("/api/Index/gallery?limit=15").expect(400)).body.msg).toBe("limit must be 10, 20, 30 or 50");
  });
});
