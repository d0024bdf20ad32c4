import express from "express";
import pg from "pg";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, silentLog, type TestDb } from "../../../tests/db-utils.ts";
import { errorHandler } from "../http/error-handler.ts";
import { MSG } from "../http/messages.ts";
import { createDb, limitHit, sqlPool, sqlTransaction, type Db, type Tx } from "./client.ts";
import { isPoolInsideTransaction, PoolInsideTransactionError, type SessionLimits } from "./pool-guard.ts";

/** Issue 29: nothing inside a transaction reaches for the pool; every connection carries the session limits. */
let t: TestDb;
let userId: number;
const LIMITS: SessionLimits = { lockTimeoutMs: 300, statementTimeoutMs: 500, idleInTransactionMs: 600, poolWaitMs: 300 };
const opened: Db[] = [];
/** A Db of its own over the test database. */
const dbWith = (poolSize: number, options: Parameters<typeof createDb>[2]) => {
  const db = createDb(t.url, poolSize, options);
  opened.push(db);
  return db;
};

beforeAll(async () => {
  t = await createTestDb();
  userId = (await t.db.user.create({ data: {} })).id;
});
afterAll(async () => {
  await Promise.all(opened.map((db) => db.$disconnect()));
  await t?.drop();
});

const aUser = (c: Db | Tx) => c.user.findUnique({ where: { id: userId }, select: { id: true } });
const refused = (p: Promise<unknown>) =>
  p.then(
    () => "went through",
    (e: unknown) => (isPoolInsideTransaction(e) ? "refused" : e),
  );

/** Holds the user's row locked from another connection until the returned function is called. */
async function lockUserRow(): Promise<() => Promise<void>> {
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  await c.query("BEGIN");
  await c.query("SELECT id FROM users WHERE id = $1 FOR UPDATE", [userId]);
  return async () => {
    await c.query("COMMIT");
    await c.end();
  };
}

describe("a query on the pool inside an open transaction", () => {
  it("is refused, whichever way it is made, while the transaction's own client works", async () => {
    const { db } = t;
    expect(await refused(db.$transaction(async () => aUser(db)))).toBe("refused");
    expect(await refused(db.$transaction(async () => sqlPool(db).query("SELECT 1")))).toBe("refused");
    expect(await refused(db.$transaction(async () => db.$transaction(async (inner) => aUser(inner))))).toBe("refused");
    expect(await refused(sqlTransaction(db, async () => aUser(db)))).toBe("refused");
    expect(await refused(sqlTransaction(db, async () => sqlPool(db).query("SELECT 1")))).toBe("refused");
    expect(await db.$transaction(async (tx) => aUser(tx))).toEqual({ id: userId });
    expect((await sqlTransaction(db, (tx) => tx.query("SELECT 1 AS one"))).rows).toEqual([{ one: 1 }]);
  });

  it("is allowed once the transaction has ended, to work it started without awaiting, and outside any", async () => {
    const { db } = t;
    let later: Promise<unknown> | undefined;
    await db.$transaction(async () => {
      later = new Promise((r) => setTimeout(r, 50)).then(() => aUser(db));
    });
    await expect(later).resolves.toEqual({ id: userId });
    await expect(Promise.all([aUser(db), sqlPool(db).query("SELECT 1")])).resolves.toHaveLength(2);
  });

  it("is reported and let through where the process says so (production)", async () => {
    const reported: Error[] = [];
    const db = dbWith(2, { onPoolInsideTransaction: (err) => reported.push(err) });
    await db.$transaction(async () => aUser(db));
    expect(reported).toHaveLength(1);
    expect(reported[0]).toBeInstanceOf(PoolInsideTransactionError);
  });
});

describe("the session limits", () => {
  it("stop a statement waiting on a lock (55P03) and a statement running too long (57014), each alone", async () => {
    const db = dbWith(2, { limits: LIMITS });
    const release = await lockUserRow();
    try {
      const started = performance.now();
      const locked = await db.$transaction((tx) => tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`).catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(1500);
      expect(limitHit(locked)).toBe("lock");
      const slow = await db.$queryRaw`SELECT pg_sleep(2)`.catch((e: unknown) => e);
      expect(limitHit(slow)).toBe("overloaded");
      // the connections were not harmed
      expect(await aUser(db)).toEqual({ id: userId });
    } finally {
      await release();
    }
  });

  it("bound the wait for a connection; a transaction asking to live longer may idle that long, any other loses its connection", async () => {
    const db = dbWith(1, { limits: LIMITS });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const holding = db.$transaction(
      async (tx) => {
        await sleep(1000);
        return aUser(tx);
      },
      { timeout: 5000 },
    );
    await sleep(50);
    expect(limitHit(await aUser(db).catch((e: unknown) => e))).toBe("overloaded");
    await expect(holding).resolves.toEqual({ id: userId });
    const idle = await db
      .$transaction(async (tx) => {
        await sleep(1000);
        return aUser(tx);
      })
      .catch((e: unknown) => e);
    expect(limitHit(idle)).toBe("overloaded");
    // the lost connection went back to the pool as broken: the next query gets a fresh one
    expect(await aUser(db)).toEqual({ id: userId });
  });

  it("answer 409 or 503 with a message the person can act on, never 500", async () => {
    const db = dbWith(2, { limits: LIMITS });
    const app = express();
    app.get("/lock", async () => db.$transaction((tx) => tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`));
    app.get("/slow", async () => db.$queryRaw`SELECT pg_sleep(2)`);
    app.use(errorHandler(silentLog));
    const release = await lockUserRow();
    try {
      expect((await supertest(app).get("/lock")).body).toEqual({ code: 409, msg: MSG.busy, data: null });
      expect((await supertest(app).get("/slow")).body).toEqual({ code: 503, msg: MSG.serviceBusy, data: null });
    } finally {
      await release();
    }
  });
});
