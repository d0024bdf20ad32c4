import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RateLimiter } from "../../server/src/http/rate-limit.ts";
import { createTestDb, type TestDb } from "../db-utils.ts";
import { startTestServer } from "../server-utils.ts";

type Server = Awaited<ReturnType<typeof startTestServer>>;

let shared: TestDb;
let a: Server;
let b: Server;
beforeAll(async () => {
  shared = await createTestDb();
  const settings = { RATE_LIMIT_VISITOR_PER_HOUR: "10" };
  a = await startTestServer(settings, shared);
  b = await startTestServer(settings, shared);
});
afterAll(async () => {
  await a.stop();
  await b.stop();
  await shared.drop();
});

const newGuest = (s: Server) => fetch(`${s.url}/api/login/visitor`, { method: "POST" });

describe("rate limits across API instances", () => {
  it("two instances on one database share the counters, exactly, under concurrency", async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, (_, i) => newGuest(i % 2 ? a : b)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    const refused = answers.find((r) => r.status === 429)!;
    expect(await refused.json()).toEqual({ code: 429, msg: "Too many requests", data: null });
    // and both instances keep refusing
    expect((await newGuest(a)).status).toBe(429);
    expect((await newGuest(b)).status).toBe(429);
  });
});

describe("RateLimiter", () => {
  it("starts a new window when the old one ends, and prunes old windows", async () => {
    const limiter = new RateLimiter(shared.db);
    const rule = { key: "k", limit: 2, windowSeconds: 3600 };
    await limiter.hit("unit", [rule]);
    await limiter.hit("unit", [rule]);
    await expect(limiter.hit("unit", [rule])).rejects.toMatchObject({ status: 429 });
    // move the counter into the past: the current window is fresh again
    await shared.db.rateLimitCounter.updateMany({ where: { key: "unit|k" }, data: { windowStart: new Date(Date.now() - 2 * 86_400_000) } });
    await limiter.hit("unit", [rule]);
    expect(await limiter.prune()).toBeGreaterThanOrEqual(1);
    expect(await shared.db.rateLimitCounter.count({ where: { key: "unit|k" } })).toBe(1);
  });
});
