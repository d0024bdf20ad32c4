import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, lockWaiters, takeLock, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV } from "../../../../tests/generation-utils.ts";
import { MSG } from "../../http/messages.ts";

/** Issue 12 item 8: a refusal for want of credits answers at once, without waiting behind the charging transaction. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(GENERATION_TEST_ENV);
});
afterAll(() => t.close());

const submit = (token: string) => t.http.post("/api/Generation/textPicSubmit").set("token", token).send({ prompt: "a lighthouse at dusk", aspect: "1:1" });

/**
 * The API's lock limit (DB_LOCK_TIMEOUT_MS, 2 s): the charged submits wait behind the held row for less than this and
 * then go through; a refusal that waited behind them would take a good part of it.
 */
const LOCK_LIMIT_MS = 2000;

/** Holds the user's row the way a concurrent charge of that user does, until released. */
const holdUserRow = (userId: number) => takeLock(t.testDb.url, "SELECT id FROM users WHERE id = $1 FOR UPDATE", [userId]);

describe("refused submits", () => {
  it("answer 402 'Please get points first' at once while charging transactions are stuck, and so does personal_info", async () => {
    const poor = await visitor(t);
    const rich = await visitor(t);
    await t.services.credits.grant({ userId: rich.userId, amount: 1000, reason: "test", idempotencyKey: `g-${rich.userId}` });
    await submit(poor.token).expect(402); // warm-up: the queue is started on the first submit
    // 40 submits that will be charged, stuck behind the held row: every charging slot (half of DB_POOL_SIZE) is a
    // transaction waiting for the row, the other submits wait for a slot
    const row = await holdUserRow(rich.userId);
    const charged = Promise.all(Array.from({ length: 40 }, () => submit(rich.token)));
    await lockWaiters(t.testDb.url, Math.floor(t.config.DB_POOL_SIZE / 2));
    const timed = async (req: PromiseLike<{ status: number; body: { msg: string } }>) => {
      const started = performance.now();
      const res = await req;
      return { res, took: performance.now() - started };
    };
    const [refusal, info] = await Promise.all([timed(submit(poor.token)), timed(t.http.get("/api/Personal/personal_info").set("token", poor.token))]);
    await row.release();
    expect((await charged).every((r) => r.status === 200)).toBe(true);
    expect(refusal.res.status).toBe(402);
    expect(refusal.res.body.msg).toBe(MSG.notEnoughCredits);
    expect(refusal.took).toBeLessThan(LOCK_LIMIT_MS / 4);
    expect(info.res.status).toBe(200);
    expect(info.took).toBeLessThan(LOCK_LIMIT_MS / 4);
    expect(await t.db.generationTask.count({ where: { userId: poor.userId } })).toBe(0);
  }, 30_000);

  it("still charges (and only once) whoever has the credits or a free generation", async () => {
    const rich = await visitor(t);
    await t.services.credits.grant({ userId: rich.userId, amount: 3, reason: "test", idempotencyKey: `g-${rich.userId}` });
    const answers = await Promise.all(Array.from({ length: 6 }, () => submit(rich.token)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 402, 402, 402]);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: rich.userId } })).points).toBe(0);

    const free = await visitor(t);
    await t.db.user.update({ where: { id: free.userId }, data: { freeGenerations: 1 } });
    await submit(free.token).expect(200);
    await submit(free.token).expect(402);
  });
});

describe("the hourly submit limit", () => {
  it("counts the submits that reach the charge; a refusal for want of credits is answered without counting (decision 222)", async () => {
    const limited = await createTestApp({ ...GENERATION_TEST_ENV, RATE_LIMIT_GENERATIONS_PER_HOUR: "3" });
    try {
      const send = (token: string) =>
        limited.http.post("/api/Generation/textPicSubmit").set("token", token).send({ prompt: "a lighthouse at dusk", aspect: "1:1" });
      const poor = await visitor(limited);
      for (let i = 0; i < 5; i++) await send(poor.token).expect(402);
      const rich = await visitor(limited);
      await limited.services.credits.grant({ userId: rich.userId, amount: 100, reason: "test", idempotencyKey: `g-${rich.userId}` });
      for (let i = 0; i < 3; i++) await send(rich.token).expect(200);
      await send(rich.token).expect(429);
      expect(await limited.db.generationTask.count({ where: { userId: rich.userId } })).toBe(3);
    } finally {
      await limited.close();
    }
  });
});
