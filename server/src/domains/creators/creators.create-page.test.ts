import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import { photosExceeded } from "../../contract/training.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

const post = (token: string, what: string, body: Record<string, unknown>) => t.http.post(`/api/Subscribe/${what}`).set("token", token).send(body);
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const grant = (userId: number, amount: number) =>
  t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test:${userId}:${Math.random()}` });
/** A finished, usable character model of `userId`'s, as training leaves one. */
const finishedModel = (userId: number, cover: number) =>
  t.db.characterModel.create({
    data: { userId, name: `Model ${++n}`, homeLink: `model${n}x${userId}`, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" },
  });

describe("a creator page made without training (issue 30 item 1)", () => {
  it("a guest is asked to save the account first, and nothing is made", async () => {
    const guest = await visitor(t);
    const res = await post(guest.token, "createPage", { home_link: "GuestPage", title: "Guest" }).expect(403);
    expect(res.body).toEqual({ code: 403, msg: SAVE_ACCOUNT_MESSAGE, data: null });
    // the training wizard's submit refuses a guest with the same words
    const training = await t.http.post("/api/Training/submit").set("token", guest.token).send({}).expect(403);
    expect(training.body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    expect(await t.db.creatorPage.count({ where: { userId: guest.userId } })).toBe(0);
  });

  it("refuses a bad home link, a missing name, another's cover or model with SPEC's words, and changes nothing", async () => {
    const who = await registeredUser(t);
    const other = await registeredUser(t);
    const othersCover = await uploadImage(t, other.token, await photo(320, 400));
    const othersModel = await finishedModel(other.userId, othersCover);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ title: "A" }, 400, HOME_LINK_MESSAGES.required],
      [{ home_link: "ab", title: "A" }, 400, HOME_LINK_MESSAGES.length],
      [{ home_link: "a".repeat(21), title: "A" }, 400, HOME_LINK_MESSAGES.length],
      [{ home_link: "bad link", title: "A" }, 400, HOME_LINK_MESSAGES.characters],
      [{ home_link: "Console", title: "A" }, 400, HOME_LINK_MESSAGES.reserved],
      [{ home_link: "goodlink" }, 400, M.titleRequired],
      [{ home_link: "goodlink", title: "   " }, 400, M.titleRequired],
      [{ home_link: "goodlink", title: "x".repeat(41) }, 400, M.titleLength],
      [{ home_link: "goodlink", title: "A", cover_id: othersCover }, 404, "The access resource does not exist"],
      [{ home_link: "goodlink", title: "A", role_id: othersModel.id }, 400, M.modelNotReady],
      [{ home_link: "goodlink", title: "A", social_links: ["http://evil.example"] }, 400, M.socialLink],
    ];
    for (const [body, status, msg] of cases) {
      const res = await post(who.token, "createPage", body);
      expect([res.status, res.body.msg], JSON.stringify(body)).toEqual([status, msg]);
    }
    expect(await t.db.creatorPage.count({ where: { userId: who.userId } })).toBe(0);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: who.userId } })).role).toBe("user");
  });

  it("makes the page with its own link, name, cover, bio and links; one per account; a link is taken in any case", async () => {
    const who = await registeredUser(t);
    const cover = await uploadImage(t, who.token, await photo(320, 400));
    const made = await post(who.token, "createPage", {
      home_link: " NoModel1 ",
      title: "Nova",
      cover_id: cover,
      bio: "Hello",
      social_links: ["https://instagram.com/nova"],
    }).expect(200);
    expect(made.body.data).toMatchObject({
      home_link: "NoModel1",
      title: "Nova",
      bio: "Hello",
      social_links: ["https://instagram.com/nova"],
      is_owner: true,
      state: "active",
      role_id: null,
      cover_id: cover,
    });
    expect((await fetchMedia(t, made.body.data.cover_url)).status).toBe(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: who.userId } })).role).toBe("creator");
    const seen = await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: "nomodel1" }).expect(200);
    expect(seen.body.data).toMatchObject({ title: "Nova", subscriber_count: 0, is_owner: false, cover_id: null, role_id: null });
    // the owner opening the page gets what its edit screen starts from, without asking for it again
    const asOwner = await t.http.get("/api/Subscribe/getHomeLinkInfo").set("token", who.token).query({ home_link: "nomodel1" }).expect(200);
    expect(asOwner.body.data).toMatchObject({ is_owner: true, cover_id: cover, role_id: null });

    expect((await post(who.token, "createPage", { home_link: "Another1", title: "Two" }).expect(409)).body.msg).toBe(M.hasPage);
    const rival = await registeredUser(t);
    expect((await post(rival.token, "createPage", { home_link: "NOMODEL1", title: "Copy" }).expect(409)).body.msg).toBe(HOME_LINK_MESSAGES.taken);
    expect(await t.db.creatorPage.count({ where: { userId: rival.userId } })).toBe(0);
  });

  it("twenty taps of one account make one page; two accounts racing for one link get it once", async () => {
    const who = await registeredUser(t);
    const taps = await Promise.all(Array.from({ length: 20 }, () => post(who.token, "createPage", { home_link: "Racer1", title: "Racer" })));
    expect(taps.filter((r) => r.status === 200)).toHaveLength(1);
    expect(new Set(taps.filter((r) => r.status !== 200).map((r) => `${r.status} ${r.body.msg}`))).toEqual(new Set([`409 ${M.hasPage}`]));
    const [a, b] = await Promise.all([registeredUser(t), registeredUser(t)]);
    const race = await Promise.all([a, b].map((u) => post(u.token, "createPage", { home_link: "Contested", title: "Mine" })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(race.find((r) => r.status === 409)?.body.msg).toBe(HOME_LINK_MESSAGES.taken);
    expect(await t.db.creatorPage.count({ where: { homeLink: { equals: "contested", mode: "insensitive" } } })).toBe(1);
  });

  it("a fan follows it, buys its membership, sees its library and sends a custom request", async () => {
    const creator = await registeredUser(t);
    await post(creator.token, "createPage", { home_link: "FanTest1", title: "Fan test" }).expect(200);
    await post(creator.token, "updatePage", { membership_price: 10, request_price: 5 }).expect(200);
    const fan = await registeredUser(t);
    await grant(fan.userId, 100);

    const followed = await post(fan.token, "binding", { home_link: "fantest1", subscribe: 1 }).expect(200);
    expect(followed.body.data).toEqual({ subscribed: true, subscriber_count: 1 });
    const joined = await post(fan.token, "joinMembership", { home_link: "fantest1" }).expect(200);
    expect(joined.body.data).toMatchObject({ status: "active", price: 10, member: true });
    expect([await balance(fan.userId), await balance(creator.userId)]).toEqual([90, 10]);
    const page = await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: "FanTest1" }).set("token", fan.token).expect(200);
    expect(page.body.data).toMatchObject({ subscribed: true, membership: { member: true }, library: [], library_total: 0, cover_url: null });
    await t.http.get("/api/Subscribe/library").query({ home_link: "fantest1" }).set("token", fan.token).expect(200);
    const asked = await post(fan.token, "request", { home_link: "fantest1", text: "A portrait", idempotency_key: "create-page-request-1" }).expect(200);
    expect(asked.body.data).toMatchObject({ status: "pending", price: 5 });
    expect(await balance(fan.userId)).toBe(85);
  });

  it("the edit screen renames it, changes the cover, attaches one of the person's finished models and detaches it", async () => {
    const who = await registeredUser(t);
    await post(who.token, "createPage", { home_link: "Attach1", title: "Before" }).expect(200);
    const cover = await uploadImage(t, who.token, await photo(320, 400));
    const model = await finishedModel(who.userId, cover);
    const other = await registeredUser(t);
    const othersModel = await finishedModel(other.userId, await uploadImage(t, other.token, await photo(320, 400)));

    expect((await post(who.token, "updatePage", { role_id: othersModel.id }).expect(400)).body.msg).toBe(M.modelNotReady);
    const attached = await post(who.token, "updatePage", { title: "After", role_id: model.id }).expect(200);
    // no cover of its own: the model's shows
    expect(attached.body.data).toMatchObject({ title: "After", role_id: model.id, cover_id: null, home_link: "Attach1", cover_url: expect.any(String) });
    const own = await post(who.token, "updatePage", { cover_id: cover }).expect(200);
    expect(own.body.data).toMatchObject({ cover_id: cover, role_id: model.id });
    const detached = await post(who.token, "updatePage", { role_id: null, cover_id: null }).expect(200);
    expect(detached.body.data).toMatchObject({ role_id: null, cover_id: null, cover_url: null, title: "After" });
  });
});

describe("my models (issue 30 item 7)", () => {
  it("withdrawing a model's consent keeps the page that shows it, without the model; another's model is not found", async () => {
    const who = await registeredUser(t);
    const model = await finishedModel(who.userId, await uploadImage(t, who.token, await photo(320, 400)));
    await post(who.token, "publishPage", { role_id: model.id }).expect(200);
    const stranger = await registeredUser(t);
    await t.http.post("/api/Training/revoke").set("token", stranger.token).send({ id: model.id }).expect(404);
    expect((await t.db.creatorPage.findUniqueOrThrow({ where: { userId: who.userId } })).characterModelId).toBe(model.id);

    const revoked = await t.http.post("/api/Training/revoke").set("token", who.token).send({ id: model.id }).expect(200);
    expect(revoked.body.data).toEqual({ id: model.id, state: "removed" });
    const page = await t.http.get("/api/Subscribe/myPage").set("token", who.token).expect(200);
    expect(page.body.data.page).toMatchObject({ home_link: model.homeLink, state: "active", role_id: null, cover_url: null });
    await t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: model.homeLink }).expect(200);
    // a withdrawn model cannot be attached again
    expect((await post(who.token, "updatePage", { role_id: model.id }).expect(400)).body.msg).toBe(M.modelNotReady);
  });

  it("more than 20 training photos are refused with the count selected against the limit", async () => {
    const who = await registeredUser(t);
    const ids = Array.from({ length: 23 }, (_, i) => i + 1);
    const res = await t.http.post("/api/Training/submit").set("token", who.token).send({ name: "Me", home_link: "manyphotos", cover_id: 1, photo_ids: ids });
    expect(res.body).toEqual({ code: 400, msg: photosExceeded(23, 20), data: null });
    expect(res.body.msg).toBe("You selected 23 images; at most 20 can be used");
  });
});
