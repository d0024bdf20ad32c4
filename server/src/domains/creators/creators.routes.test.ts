import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { newStaff } from "../../../../tests/staff-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";

let t: TestApp;
let appDir: string;
let n = 0;

beforeAll(async () => {
  // the built app's index.html, as the link preview rewrites it
  appDir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-creators-app-"));
  await fs.writeFile(path.join(appDir, "index.html"), "<!doctype html><html><head><title>Reverie</title></head><body><div id=root></div></body></html>");
  t = await createTestApp({ CONSUMER_DIST_DIR: appDir, PUBLIC_URL: "https://reverie.example", CREATOR_MIN_RATINGS: "2" });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fs.rm(appDir, { recursive: true, force: true });
});

/** A registered account with a finished character model (its cover an uploaded photo); answers the model id. */
async function creatorWithModel(homeLink: string) {
  const who = await registeredUser(t);
  const cover = await uploadImage(t, who.token, await photo(640, 800));
  const model = await t.db.characterModel.create({
    data: { userId: who.userId, name: `Model ${++n}`, homeLink, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" },
  });
  return { ...who, modelId: model.id };
}

const publish = (token: string, body: Record<string, unknown>) => t.http.post("/api/Subscribe/publishPage").set("token", token).send(body);

const info = (link: string, token?: string) => {
  const req = t.http.get("/api/Subscribe/getHomeLinkInfo").query({ home_link: link });
  return token ? req.set("token", token) : req;
};
const bind = (token: string, link: string, subscribe: 0 | 1) => t.http.post("/api/Subscribe/binding").set("token", token).send({ home_link: link, subscribe });

describe("creator pages: publishing and the public page", () => {
  it("publishes a page for a finished model, makes the account a creator, and shows only real figures", async () => {
    const c = await creatorWithModel("LunaRay");
    const res = await publish(c.token, { role_id: c.modelId, bio: "Hi, I am Luna", social_links: ["https://www.instagram.com/luna"] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      home_link: "LunaRay",
      title: expect.stringMatching(/^Model/),
      bio: "Hi, I am Luna",
      subscriber_count: 0,
      is_owner: true,
      library: [],
    });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: c.userId } })).role).toBe("creator");
    // any case finds it; a stranger sees the same page, not as its owner
    const page = await info("lunaray").expect(200);
    expect(page.body.data).toMatchObject({ home_link: "LunaRay", subscriber_count: 0, subscribed: false, is_owner: false });
    expect(page.body.data.cover_url).toEqual(expect.any(String));
    // a second page, or a page for a model still training, is refused
    expect((await publish(c.token, { role_id: c.modelId })).body.msg).toBe(M.hasPage);
    const other = await registeredUser(t);
    const training = await t.db.characterModel.create({ data: { userId: other.userId, name: "Still", homeLink: "StillTraining", status: "doing", cost: 5 } });
    expect((await publish(other.token, { role_id: training.id })).body).toMatchObject({ code: 400, msg: M.modelNotReady });
    // someone else's finished model is not the caller's
    expect((await publish(other.token, { role_id: c.modelId })).body.msg).toBe(M.modelNotReady);
  });

  it("answers the SPEC messages for an empty and an unknown link, and refuses unknown social networks", async () => {
    expect((await info("").expect(400)).body.msg).toBe(M.noDomainInformation);
    expect((await info("nobody-here").expect(404)).body.msg).toBe(M.domainNotFound);
    const c = await creatorWithModel("SocialTest");
    const bad = await publish(c.token, { role_id: c.modelId, social_links: ["http://instagram.com/x"] });
    expect(bad.body).toMatchObject({ code: 400, msg: M.socialLink });
    const evil = await publish(c.token, { role_id: c.modelId, social_links: ["https://instagram.com.evil.example/x"] });
    expect(evil.body.msg).toBe(M.socialLink);
    expect(await t.db.creatorPage.count({ where: { userId: c.userId } })).toBe(0);
  });

  it("lets only its creator edit the page", async () => {
    const c = await creatorWithModel("EditMe");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const edited = await t.http
      .post("/api/Subscribe/updatePage")
      .set("token", c.token)
      .send({ bio: "New bio", social_links: ["https://x.com/editme"] })
      .expect(200);
    expect(edited.body.data).toMatchObject({ bio: "New bio", social_links: ["https://x.com/editme"] });
    // a fan has no page to edit: refused by permission, and the creator's page is unchanged
    const fan = await visitor(t);
    expect((await t.http.post("/api/Subscribe/updatePage").set("token", fan.token).send({ bio: "hacked" })).status).toBe(403);
    expect((await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } })).bio).toBe("New bio");
  });
});

describe("subscribe and unsubscribe", () => {
  it("ends 50 concurrent subscribes from one fan in one subscription, and the count is the rows'", async () => {
    const c = await creatorWithModel("Popular");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const fan = await registeredUser(t);
    const answers = await Promise.all(Array.from({ length: 50 }, () => bind(fan.token, "popular", 1)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
    expect(await t.db.subscription.count({ where: { creatorPageId: page.id } })).toBe(1);
    expect((await info("Popular", fan.token)).body.data).toMatchObject({ subscriber_count: 1, subscribed: true });

    // subscribes and unsubscribes racing: one row or none, and whatever the outcome, the count matches it
    const mixed = await Promise.all(Array.from({ length: 50 }, (_, i) => bind(fan.token, "Popular", (i % 2) as 0 | 1)));
    expect(mixed.every((a) => a.status === 200)).toBe(true);
    const rows = await t.db.subscription.count({ where: { creatorPageId: page.id, active: true } });
    expect(rows).toBeLessThanOrEqual(1);
    expect((await info("Popular", fan.token)).body.data.subscriber_count).toBe(rows);

    await bind(fan.token, "Popular", 0).expect(200);
    const after = await bind(fan.token, "Popular", 0).expect(200);
    expect(after.body.data).toEqual({ subscribed: false, subscriber_count: 0 });
  });

  it("refuses subscribing to one's own page and to a link that is not there", async () => {
    const c = await creatorWithModel("SelfFan");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    expect((await bind(c.token, "SelfFan", 1)).body).toMatchObject({ code: 400, msg: M.ownPage });
    const fan = await registeredUser(t);
    expect((await bind(fan.token, "NoSuchPage", 1)).body).toMatchObject({ code: 404, msg: M.domainNotFound });
    expect(await t.db.subscription.count({ where: { userId: { in: [c.userId, fan.userId] } } })).toBe(0);
  });

  it("moves a guest's subscriptions to the account it signs in to", async () => {
    const c = await creatorWithModel("MergeMe");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const guest = await visitor(t);
    // a guest cannot follow (docs/decisions/309); rows from before that rule still move with the guest
    const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
    await t.db.subscription.create({ data: { creatorPageId: page.id, userId: guest.userId } });
    const account = await registeredUser(t);
    await t.db.$transaction((tx) => t.services.creators.moveToUser(tx, guest.userId, account.userId));
    expect((await info("MergeMe", account.token)).body.data).toMatchObject({ subscribed: true, subscriber_count: 1 });
  });
});

describe("a taken-down page", () => {
  it("answers 'Domain not found' to everyone, while the console still has it", async () => {
    const c = await creatorWithModel("GoneSoon");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
    const moderator = await newStaff(t, ["moderator"]);
    await t.services.moderation.takeDownContent(moderator.staffId, "creator_page", page.id, "Impersonation");
    expect((await info("GoneSoon").expect(404)).body.msg).toBe(M.domainNotFound);
    expect((await info("GoneSoon", c.token).expect(404)).body.msg).toBe(M.domainNotFound);
    expect((await t.services.moderation.getCreatorPage(page.id))?.state).toBe("removed");
    // its link no longer previews as the creator
    const html = await t.http.get("/GoneSoon").set("accept", "text/html").expect(200);
    expect(html.text).not.toContain("og:title");
  });
});

describe("link previews", () => {
  it("serves /{homeLink} with the creator's title, description and Open Graph image, escaped", async () => {
    const c = await creatorWithModel("PreviewMe");
    await publish(c.token, { role_id: c.modelId, bio: `Fan art & "quotes" <b>bold</b>` }).expect(200);
    const res = await t.http.get("/previewme").set("accept", "text/html").expect(200);
    expect(res.text).toContain('<meta property="og:title" content="Model');
    expect(res.text).toContain("Fan art &#38; &#34;quotes&#34; &#60;b&#62;bold&#60;/b&#62;");
    expect(res.text).not.toContain("<b>bold</b>");
    expect(res.text).toMatch(/<meta property="og:image" content="https:\/\/reverie\.example\/[^"]+"/);
    expect(res.text).toContain('<meta property="og:url" content="https://reverie.example/previewme">');
    expect(res.text.match(/<title>/g)).toHaveLength(1);
    // any other path is the plain app; a malformed escape is not an error
    expect((await t.http.get("/no-such-creator").set("accept", "text/html").expect(200)).text).not.toContain("og:title");
    expect((await t.http.get("/%E0%A4%A").set("accept", "text/html")).status).toBe(200);
  });
});

describe("premium custom requests with escrow", () => {
  const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
  const grant = (userId: number, amount: number) =>
    t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test:${userId}:${Math.random()}` });
  const ask = (token: string, link: string, key: string, text = "A beach portrait at sunset") =>
    t.http.post("/api/Subscribe/request").set("token", token).send({ home_link: link, text, idempotency_key: key });
  const act = (token: string, what: string, body: Record<string, unknown>) => t.http.post(`/api/Subscribe/${what}`).set("token", token).send(body);
  /** A creation of the creator's that finished (what a delivery hands over). */
  const finished = (userId: number) =>
    t.db.generationTask.create({
      data: { userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: `media/${userId}/out.jpg` },
    });

  async function creatorTakingRequests(link: string, price = 30) {
    const c = await creatorWithModel(link);
    await publish(c.token, { role_id: c.modelId, request_price: price }).expect(200);
    return c;
  }

  it("holds the price once for a double-tapped request, and refuses one the balance cannot pay", async () => {
    const c = await creatorTakingRequests("Escrow1");
    const fan = await visitor(t);
    await grant(fan.userId, 100);
    const taps = await Promise.all(Array.from({ length: 10 }, () => ask(fan.token, "escrow1", "tap-0001")));
    expect(taps.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(taps.map((r) => r.body.data.id)).size).toBe(1);
    expect(await balance(fan.userId)).toBe(70);
    expect((await info("Escrow1")).body.data).toMatchObject({ request_price: 30, satisfaction_rate: null });
    // 70 pays two more, not three: the third is refused and leaves no request behind
    await ask(fan.token, "Escrow1", "tap-0002").expect(200);
    await ask(fan.token, "Escrow1", "tap-0003").expect(200);
    const short = await ask(fan.token, "Escrow1", "tap-0004");
    expect(short.body.msg).toBe("Please get points first");
    expect(await t.db.customRequest.count({ where: { fanUserId: fan.userId } })).toBe(3);
    expect(await balance(fan.userId)).toBe(10);
    expect(await balance(c.userId)).toBe(0);
  });

  it("pays the creator once on delivery, even when the delivery is sent five times at once", async () => {
    const c = await creatorTakingRequests("Escrow2");
    const fan = await visitor(t);
    await grant(fan.userId, 30);
    const id = (await ask(fan.token, "Escrow2", "deliver-1").expect(200)).body.data.id;
    // another creator cannot answer it; a delivery before acceptance is refused
    const other = await creatorTakingRequests("Escrow2b");
    expect((await act(other.token, "acceptRequest", { id })).status).toBe(404);
    const task = await finished(c.userId);
    expect((await act(c.token, "deliverRequest", { id, task_id: task.id })).body.msg).toBe(M.requestNotOpen);
    await act(c.token, "acceptRequest", { id }).expect(200);
    // someone else's creation is not a delivery
    const foreign = await finished(fan.userId);
    expect((await act(c.token, "deliverRequest", { id, task_id: foreign.id })).body.msg).toBe(M.deliveryNotYours);
    const deliveries = await Promise.all(Array.from({ length: 5 }, () => act(c.token, "deliverRequest", { id, task_id: task.id })));
    expect(deliveries.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await balance(c.userId)).toBe(30);
    expect(await balance(fan.userId)).toBe(0);
    // the fan rates it once
    await act(fan.token, "rateRequest", { id, satisfied: 1 }).expect(200);
    expect((await act(fan.token, "rateRequest", { id, satisfied: 0 })).status).toBe(409);
    expect((await info("Escrow2")).body.data.satisfaction_rate).toBeNull(); // one rating: below CREATOR_MIN_RATINGS (2)
  });

  it("returns the credits once on a decline, even against a racing delivery", async () => {
    const c = await creatorTakingRequests("Escrow3");
    const fan = await visitor(t);
    await grant(fan.userId, 30);
    const id = (await ask(fan.token, "Escrow3", "decline-1").expect(200)).body.data.id;
    await act(c.token, "acceptRequest", { id }).expect(200);
    const task = await finished(c.userId);
    const [declines, delivery] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => act(c.token, "declineRequest", { id }))),
      act(c.token, "deliverRequest", { id, task_id: task.id }),
    ]);
    const wins = [...declines, delivery].filter((r) => r.status === 200);
    expect(wins).toHaveLength(1);
    // exactly one side got the 30: the fan back, or the creator
    expect((await balance(fan.userId)) + (await balance(c.userId))).toBe(30);
    const refunds = await t.db.ledgerEntry.count({ where: { reference: `custom_request:${id}`, reason: "custom_request_refund" } });
    const releases = await t.db.ledgerEntry.count({ where: { reference: `custom_request:${id}`, reason: "custom_request_earnings" } });
    expect(refunds + releases).toBe(1);
  });

  it("expires unanswered requests and refunds each once when the sweep runs twice at once", async () => {
    await creatorTakingRequests("Escrow4", 20);
    const fan = await visitor(t);
    await grant(fan.userId, 40);
    const a = (await ask(fan.token, "Escrow4", "expire-1").expect(200)).body.data.id;
    const b = (await ask(fan.token, "Escrow4", "expire-2").expect(200)).body.data.id;
    expect(await balance(fan.userId)).toBe(0);
    await t.db.customRequest.updateMany({ where: { id: { in: [a, b] } }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const [first, second] = await Promise.all([t.services.creators.expireRequests(), t.services.creators.expireRequests()]);
    expect(first + second).toBe(2);
    expect(await t.services.creators.expireRequests()).toBe(0);
    expect(await balance(fan.userId)).toBe(40);
    expect((await t.db.customRequest.findMany({ where: { id: { in: [a, b] } } })).map((r) => r.status)).toEqual(["expired", "expired"]);
  });

  it("shows the satisfaction rate once the page has enough ratings", async () => {
    const c = await creatorTakingRequests("Escrow5", 5);
    const fans = [await visitor(t), await visitor(t)];
    for (const [i, fan] of fans.entries()) {
      await grant(fan.userId, 5);
      const id = (await ask(fan.token, "Escrow5", `rate-${i}-0000`).expect(200)).body.data.id;
      await act(c.token, "acceptRequest", { id }).expect(200);
      await act(c.token, "deliverRequest", { id, task_id: (await finished(c.userId)).id }).expect(200);
      await act(fan.token, "rateRequest", { id, satisfied: i === 0 ? 1 : 0 }).expect(200);
    }
    expect((await info("Escrow5")).body.data.satisfaction_rate).toBe(50);
    const incoming = await t.http.get("/api/Subscribe/requests").query({ as: "creator" }).set("token", c.token).expect(200);
    expect(incoming.body.data.list.map((r: { status: string }) => r.status)).toEqual(["delivered", "delivered"]);
    // a fan sees only their own
    const mine = await t.http.get("/api/Subscribe/requests").set("token", fans[0].token).expect(200);
    expect(mine.body.data.list).toHaveLength(1);
  });

  it("refuses requests to a page that takes none, and to one's own page", async () => {
    const c = await creatorWithModel("NoRequests");
    await publish(c.token, { role_id: c.modelId }).expect(200);
    const fan = await visitor(t);
    await grant(fan.userId, 50);
    expect((await ask(fan.token, "NoRequests", "none-0001")).body.msg).toBe(M.noRequests);
    const own = await creatorTakingRequests("OwnRequests");
    await grant(own.userId, 50);
    expect((await ask(own.token, "OwnRequests", "own-00001")).body.msg).toBe(M.ownPage);
    expect(await balance(fan.userId)).toBe(50);
  });
});
