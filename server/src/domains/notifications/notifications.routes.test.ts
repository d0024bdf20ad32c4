import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV, grant, sharedCreation } from "../../../../tests/generation-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";
import { NOTIFICATION_MESSAGES } from "../../contract/notifications.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";

/** Issue 32 item 7: the bell (likes, remixes, tips) and its email digest (docs/decisions/312). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(GENERATION_TEST_ENV);
}, 60_000);
afterAll(() => t.close());

type Who = { token: string; userId: number };
type Line = { id: number; kind: string; subject_id: number; count: number; amount: number; actor: string | null; read: boolean };

const shared = (userId: number) => sharedCreation(t.db, userId);
const like = (who: Who, id: number) => t.http.post("/api/Gallery/like").set("token", who.token).send({ id }).expect(200);
const unlike = (who: Who, id: number) => t.http.post("/api/Gallery/unlike").set("token", who.token).send({ id }).expect(200);
const lines = async (who: Who, query = "") =>
  (await t.http.get(`/api/notifications${query}`).set("token", who.token).expect(200)).body.data as { list: Line[]; unread: number; total: number };
const unread = async (who: Who) => (await t.http.get("/api/notifications/unread").set("token", who.token).expect(200)).body.data.unread as number;
const named = async (nickname: string) => {
  const who = await registeredUser(t);
  await t.db.user.update({ where: { id: who.userId }, data: { nickname } });
  return who;
};

describe("a creator is named by their page (issue 46 item 15)", () => {
  it("in the bell and the gallery: the page's title while it is up, the account's own name once it is taken down", async () => {
    const creator = await registeredUser(t);
    await t.http.post("/api/Subscribe/createPage").set("token", creator.token).send({ home_link: "AliceCreates", title: "Alice Creates" }).expect(200);
    const owner = await visitor(t);
    const x = await shared(owner.userId);
    await like(creator, x.id);
    expect((await lines(owner)).list).toMatchObject([{ kind: "like", actor: "Alice Creates" }]);
    const mine = await shared(creator.userId);
    const gallery = async () => (await t.http.get("/api/Index/gallery").query({ limit: 50 }).expect(200)).body.data.list as { id: number; nickname: string }[];
    expect((await gallery()).find((g) => g.id === mine.id)?.nickname).toBe("Alice Creates");
    const item = (await t.http.get("/api/Index/galleryItem").query({ id: mine.id }).expect(200)).body.data;
    expect(item.nickname).toBe("Alice Creates");
    // a page taken down names no one by it: the account's display name (SPEC's Guest_ form, never having set one)
    await t.db.creatorPage.update({ where: { homeLink: "AliceCreates" }, data: { state: "removed" } });
    expect((await lines(owner)).list[0]!.actor).toMatch(/^Guest_[0-9a-f]{6}$/);
    expect((await gallery()).find((g) => g.id === mine.id)?.nickname).toMatch(/^Guest_[0-9a-f]{6}$/);
  });
});

describe("likes and remixes tell the item's owner", () => {
  it("a like notifies the owner once per liker, 20 clicks at once or an unlike and a like again; people are counted on one line", async () => {
    const owner = await visitor(t);
    const x = await shared(owner.userId);
    const ann = await named("Ann");
    await Promise.all(Array.from({ length: 20 }, () => like(ann, x.id)));
    await unlike(ann, x.id);
    await like(ann, x.id);
    expect((await lines(owner)).list).toMatchObject([{ kind: "like", subject_id: x.id, count: 1, actor: "Ann", read: false }]);
    // twelve more people at once, a guest last: one line, "13 people", and the guest is never named
    const fans = await Promise.all(Array.from({ length: 11 }, () => visitor(t)));
    await Promise.all(fans.map((f) => like(f, x.id)));
    await like(await visitor(t), x.id);
    const { list, unread: count } = await lines(owner);
    expect(list).toMatchObject([{ kind: "like", count: 13, actor: null }]);
    expect(count).toBe(1);
  });

  it("liking your own creation notifies no one", async () => {
    const owner = await visitor(t);
    const x = await shared(owner.userId);
    await like(owner, x.id);
    expect(await unread(owner)).toBe(0);
  });

  it("a remix tells the source's owner once per person; a refused remix (no credits) tells no one", async () => {
    const owner = await visitor(t);
    const source = await shared(owner.userId);
    const fan = await named("Remixer");
    const broke = await visitor(t);
    await grant(t, fan.userId, 50);
    const submit = (who: Who, key: string) =>
      t.http
        .post("/api/Generation/textPicSubmit")
        .set("token", who.token)
        .send({ prompt: "a lake at dawn", seed: 7, remix_of: source.id, idempotency_key: key });
    await Promise.all([submit(fan, "r-1").expect(200), submit(fan, "r-1").expect(200), submit(fan, "r-2").expect(200)]);
    expect((await submit(broke, "r-3")).status).toBe(402);
    expect((await lines(owner)).list).toMatchObject([{ kind: "remix", subject_id: source.id, count: 1, actor: "Remixer" }]);
  });
});

describe("tips tell the creator", () => {
  it("a tip notifies with its credits; a tip that fails for want of credits records nothing", async () => {
    const c = await registeredUser(t);
    await t.http.post("/api/Subscribe/createPage").set("token", c.token).send({ home_link: "Belled1", title: "Bell" }).expect(200);
    const fan = await named("Tipper");
    await grant(t, fan.userId, 100);
    const tip = (who: Who, amount: number, key: string) =>
      t.http.post("/api/Subscribe/tip").set("token", who.token).send({ home_link: "Belled1", amount, idempotency_key: key });
    await Promise.all(Array.from({ length: 10 }, () => tip(fan, 30, "same-tap").expect(200)));
    await tip(fan, 20, "second-tap").expect(200);
    expect((await tip(fan, 500, "too-much")).status).toBe(402);
    expect((await lines(c)).list).toMatchObject([{ kind: "tip", count: 2, amount: 50, actor: "Tipper" }]);
  });

  it("an event recorded in a transaction that rolls back leaves nothing", async () => {
    const owner = await visitor(t);
    const actor = await visitor(t);
    await expect(
      t.db.$transaction(async (tx) => {
        await t.services.notifications.record(tx, { userId: owner.userId, kind: "follow", actorId: actor.userId });
        throw new Error("the follow failed");
      }),
    ).rejects.toThrow("the follow failed");
    expect(await t.db.notification.count({ where: { userId: owner.userId } })).toBe(0);
    expect(await t.db.notificationMark.count({ where: { userId: owner.userId } })).toBe(0);
  });
});

describe("reading", () => {
  it("each account reads and marks only its own lines; a read line takes no more events, a new one starts", async () => {
    const owner = await visitor(t);
    const other = await visitor(t);
    const [x, y] = [await shared(owner.userId), await shared(owner.userId)];
    await like(other, x.id);
    await like(other, y.id);
    const mine = (await lines(owner)).list;
    expect(mine.map((l) => l.subject_id)).toEqual([y.id, x.id]);
    expect((await lines(other)).list).toEqual([]);
    await t.http.post("/api/notifications/read").set("token", other.token).send({ id: mine[0]!.id }).expect(404);
    await t.http.post("/api/notifications/read").set("token", owner.token).send({ id: "x" }).expect(400);
    await t.http.get("/api/notifications").expect(401);
    expect((await t.http.post("/api/notifications/read").set("token", owner.token).send({ id: mine[0]!.id }).expect(200)).body.data).toEqual({ unread: 1 });
    expect((await lines(owner, "?unread=1")).list.map((l) => l.subject_id)).toEqual([x.id]);
    await like(await visitor(t), y.id);
    expect((await lines(owner)).list).toMatchObject([
      { subject_id: y.id, count: 1, read: false },
      { subject_id: y.id, read: true },
      { subject_id: x.id, read: false },
    ]);
    expect((await t.http.post("/api/notifications/readAll").set("token", owner.token).send({}).expect(200)).body.data).toEqual({ unread: 0 });
    expect(await unread(owner)).toBe(0);
  });
});

describe("email digests", () => {
  const outbox = (to: string) => t.db.outboxEmail.findMany({ where: { to }, orderBy: { id: "asc" } });
  const digestOn = (who: Who) => t.http.post("/api/notifications/settings").set("token", who.token).send({ email_digest: true });

  it("off by default and a saved account's to turn on; sent once a day with two runs at once, in the account's language", async () => {
    const guest = await visitor(t);
    expect((await digestOn(guest).expect(403)).body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    const owner = await registeredUser(t);
    const { email } = await t.db.user.update({ where: { id: owner.userId }, data: { language: "ru" } });
    expect((await t.http.get("/api/notifications/settings").set("token", owner.token).expect(200)).body.data).toEqual({ email_digest: false });
    const x = await shared(owner.userId);
    await like(await named("Ann"), x.id);
    const digests = t.services.notificationDigests;
    await digests.run("2026-11-27");
    expect(await outbox(email!)).toEqual([]);
    await digestOn(owner).expect(200);
    const [a, b] = await Promise.all([digests.run("2026-11-27"), digests.run("2026-11-27")]);
    expect(a + b).toBe(1);
    const [mail] = await outbox(email!);
    expect(await outbox(email!)).toHaveLength(1);
    expect(mail!.subject).toContain("новые уведомления (1)");
    expect(mail!.body).toContain("Ann: нравится ваше творение");
    // the next day tells only what came after: nothing new, no mail
    await digests.run("2026-11-28");
    expect(await outbox(email!)).toHaveLength(1);
    await like(await visitor(t), x.id);
    await digests.run("2026-11-29");
    expect((await outbox(email!))[1]!.body).toContain("Ваше творение понравилось людям: 2");
  });

  it("the mail's unsubscribe link stops digests without signing in; a forged token changes nothing", async () => {
    const owner = await registeredUser(t);
    await digestOn(owner).expect(200);
    await like(await visitor(t), (await shared(owner.userId)).id);
    await t.services.notificationDigests.run("2026-12-01");
    const { body } = (await outbox((await t.db.user.findUniqueOrThrow({ where: { id: owner.userId } })).email!))[0]!;
    const token = decodeURIComponent(/\/unsubscribe\?token=(\S+)/.exec(body)![1]!);
    const forged = `${owner.userId + 1}.${token.split(".")[1]}`;
    for (const bad of [forged, "x", `${owner.userId}.`])
      expect((await t.http.post("/api/notifications/unsubscribe").send({ token: bad }).expect(400)).body.msg).toBe(NOTIFICATION_MESSAGES.badUnsubscribe);
    expect((await t.http.get("/api/notifications/settings").set("token", owner.token).expect(200)).body.data).toEqual({ email_digest: true });
    expect((await t.http.post("/api/notifications/unsubscribe").send({ token }).expect(200)).body.data).toEqual({ email_digest: false });
    expect((await t.http.get("/api/notifications/settings").set("token", owner.token).expect(200)).body.data).toEqual({ email_digest: false });
  });
});
