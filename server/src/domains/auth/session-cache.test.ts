import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, holdLock, silentLog, visitor, type TestDb } from "../../../../tests/db-utils.ts";
import { GENERATION_TEST_ENV } from "../../../../tests/generation-utils.ts";
import { startTestServer } from "../../../../tests/server-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { MSG } from "../../http/messages.ts";
import { createSessionCache } from "./session-cache.ts";

/**
 * Issue 12 (decisions 221, 222): each instance keeps resolved logins in memory, kept fresh by NOTIFY. Everything that
 * ends or changes a login takes effect on the very next request on any instance, and a refusal for want of credits
 * is still the ledger's word.
 */
type Server = Awaited<ReturnType<typeof startTestServer>>;
let testDb: TestDb;
let a: Server;
let b: Server;
let admin: StaffLogin;

beforeAll(async () => {
  testDb = await createTestDb();
  // two API instances on one database
  a = await startTestServer(GENERATION_TEST_ENV, testDb);
  b = await startTestServer(GENERATION_TEST_ENV, testDb);
  admin = await staffMember(a, ["admin"]);
}, 60_000);
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await testDb?.drop();
});

const info = (s: Server, token: string) => s.http.get("/api/Personal/personal_info").set("token", token);
const submit = (s: Server, token: string) =>
  s.http.post("/api/Generation/textPicSubmit").set("token", token).send({ prompt: "a lighthouse at dusk", aspect: "1:1" });

/** Until the instance's LISTEN connection is up, nothing is kept: requests until it is, then one that keeps the login. */
async function warm(s: Server, token: string, path = "/api/Personal/personal_info") {
  const read = () => s.http.get(path).set("token", token).expect(200);
  for (let i = 0; i < 50; i++) {
    await read();
    if (await s.services.auth.loginsSettled()) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await read();
}

/** Holds an exclusive lock on the sessions table for `ms`: any request that reads its session waits behind it. */
const lockSessions = (ms: number) => holdLock(testDb.url, "LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE", [], ms);

describe("logins kept in memory", () => {
  it("answer personal_info without reading the session: it answers while the sessions table is locked", async () => {
    const user = await visitor(b);
    await warm(b, user.token);
    const { released } = await lockSessions(3000);
    const started = performance.now();
    const res = await info(b, user.token).expect(200);
    const took = performance.now() - started;
    await released;
    expect(res.body.data.info.id).toBe(user.userId);
    expect(took).toBeLessThan(1500);
  });

  it("a logout on one instance: the very next request with that token is 401 on the other, and on the first", async () => {
    const user = await visitor(a);
    await warm(a, user.token);
    await warm(b, user.token);
    await a.http.post("/api/login/logout").set("token", user.token).expect(200);
    await info(b, user.token).expect(401);
    await info(a, user.token).expect(401);
  });

  it("a ban on one instance: the very next request on the other answers the ban notice", async () => {
    const user = await visitor(a);
    await warm(b, user.token);
    await a.http.post(`/admin/api/users/${user.userId}/ban`).set("token", admin.token).send({ reason: "Abuse" }).expect(200);
    const res = await info(b, user.token).expect(403);
    expect(res.body.msg).toBe(MSG.noLoginPermission);
    expect(res.body.data.reason).toBe("banned");
  });

  it("a staff role change on one instance: the member's very next request on the other has the new roles; a lost role or a password reset signs them out", async () => {
    const member = await staffMember(a, ["support"]);
    await warm(b, member.token, "/admin/api/me");
    expect((await b.http.get("/admin/api/me").set("token", member.token).expect(200)).body.data.roles).toEqual(["support"]);
    await a.http
      .put(`/admin/api/staff/${member.staffId}`)
      .set("token", admin.token)
      .send({ roles: ["support", "moderator"] })
      .expect(200);
    expect((await b.http.get("/admin/api/me").set("token", member.token).expect(200)).body.data.roles).toEqual(["support", "moderator"]);
    await a.http
      .put(`/admin/api/staff/${member.staffId}`)
      .set("token", admin.token)
      .send({ roles: ["moderator"] })
      .expect(200);
    await b.http.get("/admin/api/me").set("token", member.token).expect(401);

    const other = await staffMember(a, ["support"]);
    await warm(b, other.token, "/admin/api/me");
    await a.http.post(`/admin/api/staff/${other.staffId}/reset-password`).set("token", admin.token).send({ reason: "lost phone" }).expect(200);
    await b.http.get("/admin/api/me").set("token", other.token).expect(401);
  });

  it("a change made outside any request (a payment landing, a direct update) is seen by the very next request: no refusal after the credit committed", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => visitor(b)));
    for (const u of users) await warm(b, u.token);
    for (const u of users) await submit(b, u.token).expect(402);
    // the credit commits on another process's connection; no request of this instance hears of it but through NOTIFY
    await Promise.all(users.map((u) => a.services.credits.grant({ userId: u.userId, amount: 2, reason: "test", idempotencyKey: `pay-${u.userId}` })));
    const answers = await Promise.all(users.flatMap((u) => [submit(b, u.token), submit(b, u.token), submit(b, u.token)]));
    // three submits against credit for two: exactly two charged for each user, the third refused by the ledger
    expect(answers.map((r) => r.status).sort()).toEqual([...Array(20).fill(200), ...Array(10).fill(402)]);
    for (const u of users) {
      expect(await testDb.db.generationTask.count({ where: { userId: u.userId } })).toBe(2);
      expect((await info(b, u.token).expect(200)).body.data.info.points).toBe(0);
    }
    await testDb.db.user.update({ where: { id: users[0]!.userId }, data: { nickname: "Renamed" } });
    expect((await info(b, users[0]!.token).expect(200)).body.data.info.nickname).toBe("Renamed");
    await testDb.db.session.updateMany({ where: { userId: users[1]!.userId }, data: { revokedAt: new Date() } });
    await info(b, users[1]!.token).expect(401);
  });

  it("200 concurrent submits against credit for 50 make exactly 50 tasks and charge 50, with the login kept in memory", async () => {
    const user = await visitor(b);
    await warm(b, user.token);
    await a.services.credits.grant({ userId: user.userId, amount: 50, reason: "test", idempotencyKey: `g200-${user.userId}` });
    const answers = await Promise.all(Array.from({ length: 200 }, () => submit(b, user.token)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(50);
    expect(answers.filter((r) => r.status === 402)).toHaveLength(150);
    expect(await testDb.db.generationTask.count({ where: { userId: user.userId } })).toBe(50);
    expect((await testDb.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(0);
    expect(await testDb.db.ledgerEntry.count({ where: { userId: user.userId, reason: "generation" } })).toBe(50);
  }, 60_000);
});

describe("the cache itself", () => {
  it("does not keep a read its owner's change overtook, and keeps nothing while not listening", async () => {
    const cache = createSessionCache<string>({ databaseUrl: testDb.url, log: silentLog, maxEntries: 10, ttlMs: 60_000 });
    try {
      // not listening yet: nothing is kept
      const early = cache.begin();
      cache.keep("h0", { userId: 1 }, "zero", early);
      expect(cache.get("h0")).toBeUndefined();
      // the first look-up starts the LISTEN connection
      for (let i = 0; i < 50; i++) {
        expect(cache.has("h0")).toBe(false);
        if (await cache.settled()) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await cache.settled()).toBe(true);

      const [one, two] = [await testDb.db.user.create({ data: {} }), await testDb.db.user.create({ data: {} })];
      const ticket = cache.begin();
      // the first user's row changes while their session is being read
      await testDb.db.user.update({ where: { id: one.id }, data: { nickname: "changed" } });
      expect(await cache.settled()).toBe(true);
      cache.keep("h1", { userId: one.id }, "stale", ticket);
      cache.keep("h2", { userId: two.id }, "other", ticket);
      expect(cache.has("h1")).toBe(false);
      expect(cache.get("h2")).toBe("other");

      // a committed change to a users row reaches the cache through the trigger's NOTIFY
      await testDb.db.user.update({ where: { id: two.id }, data: { nickname: "changed" } });
      expect(await cache.settled()).toBe(true);
      expect(cache.get("h2")).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});
