import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibraryVisibility } from "../../contract/creators.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";

/** Issue 32 item 3: following creators, the "Following" feed, and who may read whose follows (docs/decisions/309). */
let t: TestApp;
let n = 0;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

type Entry = { source: string; id: number; task_id: number; locked: boolean; visibility: string; image_url: string | null; creator: { home_link: string } };

/** A creator with a page that is up (made directly: the page's own routes are tested in creators.routes.test.ts). */
async function creator() {
  const who = await registeredUser(t);
  const homeLink = `Follow${++n}x${who.userId}`;
  const page = await t.db.creatorPage.create({ data: { userId: who.userId, homeLink, title: `Creator ${n}` } });
  return { ...who, homeLink, pageId: page.id };
}
/** A finished image of `userId`, shared in the gallery or not. */
const creation = (userId: number, isPublic: boolean, createdAt = new Date()) =>
  t.db.generationTask.create({
    data: {
      userId,
      mode: "text_to_image",
      engine: "local",
      status: "succeeded",
      cost: 1,
      isPublic,
      input: {},
      outputKey: `results/${userId}/${++n}.png`,
      createdAt,
    },
  });
const onLibrary = (pageId: number, taskId: number, visibility: LibraryVisibility) =>
  t.db.creatorLibraryItem.create({ data: { creatorPageId: pageId, taskId, visibility } });

const bind = (token: string, link: string, subscribe: 0 | 1) => t.http.post("/api/Subscribe/binding").set("token", token).send({ home_link: link, subscribe });
const feed = async (token: string) => (await t.http.get("/api/Subscribe/feed").set("token", token).expect(200)).body.data.list as Entry[];
const following = async (token: string) => (await t.http.get("/api/Subscribe/following").set("token", token).expect(200)).body.data;
const followers = (pageId: number) => t.db.subscription.count({ where: { creatorPageId: pageId, active: true } });

describe("following a creator", () => {
  it("is one follow however often it is asked, twenty at once included, and an unfollow ends it", async () => {
    const c = await creator();
    const fan = await registeredUser(t);
    expect((await bind(fan.token, c.homeLink, 1).expect(200)).body.data).toEqual({ subscribed: true, subscriber_count: 1 });
    expect((await bind(fan.token, c.homeLink, 1).expect(200)).body.data).toEqual({ subscribed: true, subscriber_count: 1 });
    const other = await registeredUser(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => bind(other.token, c.homeLink.toLowerCase(), 1)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(await t.db.subscription.count({ where: { creatorPageId: c.pageId } })).toBe(2);
    expect((await bind(other.token, c.homeLink, 0).expect(200)).body.data).toEqual({ subscribed: false, subscriber_count: 1 });
    expect(await followers(c.pageId)).toBe(1);
    // the creator's bell: one line for the two new followers, each counted once however often they asked (decision 312)
    expect(await t.db.notification.findMany({ where: { userId: c.userId, kind: "follow" }, select: { count: true } })).toEqual([{ count: 2 }]);
  });

  it("refuses a guest with the save-your-account message and a caller without a login with 401, writing nothing", async () => {
    const c = await creator();
    const guest = await visitor(t);
    expect((await bind(guest.token, c.homeLink, 1)).body).toMatchObject({ code: 403, msg: SAVE_ACCOUNT_MESSAGE });
    expect((await t.http.post("/api/Subscribe/binding").send({ home_link: c.homeLink, subscribe: 1 })).status).toBe(401);
    expect((await t.http.get("/api/Subscribe/feed")).status).toBe(401);
    expect(await t.db.subscription.count({ where: { creatorPageId: c.pageId } })).toBe(0);
    // a guest may still open the gallery and read an (empty) feed of their own
    expect(await feed(guest.token)).toEqual([]);
  });

  it("lets each account read only its own follows; a creator sees a count, never who", async () => {
    const [c1, c2] = [await creator(), await creator()];
    const [a, b] = [await registeredUser(t), await registeredUser(t)];
    await bind(a.token, c1.homeLink, 1).expect(200);
    await bind(b.token, c2.homeLink, 1).expect(200);
    expect((await following(a.token)).list.map((f: { home_link: string }) => f.home_link)).toEqual([c1.homeLink]);
    expect((await following(b.token)).list.map((f: { home_link: string }) => f.home_link)).toEqual([c2.homeLink]);
    // the route names no account: asking for another's list is not a thing one can ask (extra fields are ignored)
    const sneaky = await t.http.get("/api/Subscribe/following").query({ user_id: a.userId }).set("token", b.token);
    expect(JSON.stringify(sneaky.body)).not.toContain(c1.homeLink);
    const page = (await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: c1.homeLink }).set("token", c1.token).expect(200)).body.data;
    expect(page.subscriber_count).toBe(1);
    expect(JSON.stringify(page)).not.toContain(String(a.userId));
  });
});

describe("the Following feed", () => {
  it("shows the followed creators' shared creations and library items, newest first, and nobody else's", async () => {
    const [c, stranger] = [await creator(), await creator()];
    const fan = await registeredUser(t);
    const old = await creation(c.userId, true, new Date(Date.now() - 3600_000));
    const privateOne = await creation(c.userId, false);
    const published = await onLibrary(c.pageId, privateOne.id, "public");
    await creation(stranger.userId, true);
    await bind(fan.token, c.homeLink, 1).expect(200);
    const list = await feed(fan.token);
    expect(list.map((e) => [e.source, e.task_id])).toEqual([
      ["library", privateOne.id],
      ["gallery", old.id],
    ]);
    expect(list[0]).toMatchObject({ id: published.id, locked: false, creator: { home_link: c.homeLink } });
    expect(list[0].image_url).toBeTruthy();
    // a creation both shared and on the library shows once, as the library item
    await t.db.generationTask.update({ where: { id: privateOne.id }, data: { isPublic: true } });
    expect((await feed(fan.token)).length).toBe(2);
  });

  it("never gives a non-member a members-only item's media, and gives a member URLs signed for them", async () => {
    const c = await creator();
    const [fan, member] = [await registeredUser(t), await registeredUser(t)];
    const task = await creation(c.userId, false);
    const item = await onLibrary(c.pageId, task.id, "members");
    await bind(fan.token, c.homeLink, 1).expect(200);
    await bind(member.token, c.homeLink, 1).expect(200);
    await t.db.creatorMembership.create({
      data: { creatorPageId: c.pageId, fanUserId: member.userId, price: 5, paidThrough: new Date(Date.now() + 86_400_000) },
    });

    const res = await t.http.get("/api/Subscribe/feed").set("token", fan.token).expect(200);
    expect(res.body.data.list).toEqual([expect.objectContaining({ id: item.id, locked: true, image_url: null, video_url: null, poster_url: null })]);
    // no storage key or signed URL anywhere in the answer
    expect(JSON.stringify(res.body)).not.toContain(task.outputKey);
    expect(JSON.stringify(res.body)).not.toContain("sig=");

    const [open] = await feed(member.token);
    expect(open).toMatchObject({ id: item.id, locked: false });
    expect(open.image_url).toContain(`viewer=${member.userId}`);
  });

  it("drops a banned or taken-down creator at once, and a banned follower stops counting", async () => {
    const [banned, takenDown] = [await creator(), await creator()];
    const fan = await registeredUser(t);
    await creation(banned.userId, true);
    await creation(takenDown.userId, true);
    await bind(fan.token, banned.homeLink, 1).expect(200);
    await bind(fan.token, takenDown.homeLink, 1).expect(200);
    expect((await feed(fan.token)).length).toBe(2);

    await t.db.user.update({ where: { id: banned.userId }, data: { bannedAt: new Date() } });
    await t.db.creatorPage.update({ where: { id: takenDown.pageId }, data: { state: "removed" } });
    expect(await feed(fan.token)).toEqual([]);
    expect((await following(fan.token)).list).toEqual([]);

    const c = await creator();
    const [stays, goes] = [await registeredUser(t), await registeredUser(t)];
    await bind(stays.token, c.homeLink, 1).expect(200);
    await bind(goes.token, c.homeLink, 1).expect(200);
    await t.db.user.update({ where: { id: goes.userId }, data: { bannedAt: new Date() } });
    const page = (await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: c.homeLink }).expect(200)).body.data;
    expect(page.subscriber_count).toBe(1);
  });

  it("offers the author's page to follow from a gallery item while that page is up", async () => {
    const c = await creator();
    const fan = await registeredUser(t);
    const shared = await creation(c.userId, true);
    const item = async () => (await t.http.get(`/api/Index/galleryItem?id=${shared.id}`).set("token", fan.token).expect(200)).body.data;
    expect(await item()).toMatchObject({ creator_link: c.homeLink, following: 0 });
    await bind(fan.token, c.homeLink, 1).expect(200);
    expect(await item()).toMatchObject({ creator_link: c.homeLink, following: 1 });
    await t.db.user.update({ where: { id: c.userId }, data: { bannedAt: new Date() } });
    expect(await item()).toMatchObject({ creator_link: null, following: 0 });
  });
});
