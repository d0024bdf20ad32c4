import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { LIMIT_MESSAGES, quotaMessage } from "../../contract/limits.ts";

/** Issue 29 defect 7: a fan's requests waiting for an answer, a page's library, and how many of each one account makes an hour. */
let t: TestApp;
/** The same database with small hourly rates (another API instance). */
let rates: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp({
    QUOTA_OPEN_REQUESTS: "3",
    QUOTA_LIBRARY_ITEMS: "2",
    RATE_LIMIT_REQUESTS_PER_HOUR: "100",
    RATE_LIMIT_LIBRARY_ITEMS_PER_HOUR: "100",
  });
  rates = await createTestApp({ RATE_LIMIT_REQUESTS_PER_HOUR: "2", RATE_LIMIT_LIBRARY_ITEMS_PER_HOUR: "2" }, t.testDb);
}, 120_000);
afterAll(async () => {
  await rates?.close();
  await t?.close();
});

const post = (app: TestApp, token: string, call: string, body: object) => app.http.post(`/api/Subscribe/${call}`).set("token", token).send(body);

/** A registered creator whose page takes paid requests (5 credits each). */
async function creatorPage(app: TestApp) {
  const who = await registeredUser(app);
  const homeLink = `Limits${++n}`;
  const cover = await uploadImage(app, who.token, await photo(640, 800));
  const model = await app.db.characterModel.create({
    data: { userId: who.userId, name: `Model ${n}`, homeLink, coverUploadId: cover, status: "success", cost: 5, triggerWord: "rvr" },
  });
  await post(app, who.token, "publishPage", { role_id: model.id, request_price: 5 }).expect(200);
  return { ...who, homeLink };
}

async function creation(app: TestApp, userId: number) {
  const key = `media/${userId}/limits-${++n}.jpg`;
  await app.services.storage.put(key, await photo(320, 400), "image/jpeg");
  return app.db.generationTask.create({ data: { userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: key } });
}

async function fanWith(app: TestApp, credits: number) {
  const fan = await visitor(app);
  await app.services.credits.grant({ userId: fan.userId, amount: credits, reason: "test", idempotencyKey: `limits:${fan.userId}` });
  return fan;
}

const balance = async (app: TestApp, userId: number) => (await app.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

describe("what one account may ask and publish", () => {
  it("6 requests at once against a quota of 3 waiting: 3 are held, the rest refused and charged nothing; an answer makes room", async () => {
    const c = await creatorPage(t);
    const fan = await fanWith(t, 100);
    const ask = (i: number) => post(t, fan.token, "request", { home_link: c.homeLink, text: `Portrait ${i}`, idempotency_key: `limits-${fan.userId}-${i}` });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(i)));
    const held = answers.filter((a) => a.status === 200);
    expect(held).toHaveLength(3);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ code: 409, msg: quotaMessage("openRequests", 3), data: null });
    expect(await balance(t, fan.userId)).toBe(85);
    // a double tap of a held request is still that request
    expect((await ask(answers.indexOf(held[0]!)).expect(200)).body.data.id).toBe(held[0]!.body.data.id);
    await post(t, c.token, "declineRequest", { id: held[0]!.body.data.id }).expect(200);
    await ask(10).expect(200);
    await ask(11).expect(409);
    expect(await balance(t, fan.userId)).toBe(85);
  });

  it("4 creations published at once against a page quota of 2: 2 are on the page; changing an item's visibility still works", async () => {
    const c = await creatorPage(t);
    const tasks = await Promise.all(Array.from({ length: 4 }, () => creation(t, c.userId)));
    const answers = await Promise.all(tasks.map((task) => post(t, c.token, "publishItem", { task_id: task.id, visibility: "public" })));
    const published = answers.filter((a) => a.status === 200);
    expect(published).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toEqual({ code: 409, msg: quotaMessage("libraryItems", 2), data: null });
    const onPage = await t.db.creatorLibraryItem.findMany({ where: { creatorPage: { userId: c.userId } } });
    expect(onPage).toHaveLength(2);
    await post(t, c.token, "publishItem", { task_id: onPage[0]!.taskId, visibility: "members" }).expect(200);
  });

  it("hourly rates per account on requests and publishing", async () => {
    const c = await creatorPage(rates);
    const fan = await fanWith(rates, 100);
    for (let i = 0; i < 2; i++)
      await post(rates, fan.token, "request", { home_link: c.homeLink, text: `Sea ${i}`, idempotency_key: `rate-${fan.userId}-${i}` }).expect(200);
    const refused = await post(rates, fan.token, "request", { home_link: c.homeLink, text: "Sea 3", idempotency_key: `rate-${fan.userId}-3` }).expect(429);
    expect(refused.body.msg).toBe(LIMIT_MESSAGES.hourly);
    // the hour counts requests made, not taps: a replayed request is still answered
    await post(rates, fan.token, "request", { home_link: c.homeLink, text: "Sea 0", idempotency_key: `rate-${fan.userId}-0` }).expect(200);
    expect(await balance(rates, fan.userId)).toBe(90);
    for (let i = 0; i < 2; i++) await post(rates, c.token, "publishItem", { task_id: (await creation(rates, c.userId)).id, visibility: "public" }).expect(200);
    expect((await post(rates, c.token, "publishItem", { task_id: (await creation(rates, c.userId)).id, visibility: "public" }).expect(429)).body.msg).toBe(
      LIMIT_MESSAGES.hourly,
    );
  });
});
