import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../tests/db-utils.ts";
import { HttpError } from "./errors.ts";
import { RateLimiter } from "./rate-limit.ts";

let t: TestDb;
let limiter: RateLimiter;
beforeAll(async () => {
  t = await createTestDb();
  limiter = new RateLimiter(t.db);
});
afterAll(() => t.drop());

const outcome = (p: Promise<void>) =>
  p.then(
    () => "ok",
    (err: unknown) => (err instanceof HttpError && err.status === 429 ? "429" : Promise.reject(err)),
  );

describe("rate limits", () => {
  it("let exactly the limit through when many hits of one key arrive together, and count every hit", async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => outcome(limiter.hit("burst", [{ key: "ip:1", limit: 5, windowSeconds: 3600 }]))));
    expect(results.filter((r) => r === "ok")).toHaveLength(5);
    expect(results.filter((r) => r === "429")).toHaveLength(7);
    const [row] = await t.db.rateLimitCounter.findMany({ where: { key: "burst|ip:1" } });
    expect(row!.count).toBe(12);
    // the next hit, in a later turn, is counted after them
    expect(await outcome(limiter.hit("burst", [{ key: "ip:1", limit: 12, windowSeconds: 3600 }]))).toBe("429");
    expect(await outcome(limiter.hit("burst", [{ key: "ip:1", limit: 14, windowSeconds: 3600 }]))).toBe("ok");
  });

  it("count keys, scopes and windows apart; a hit refused by one rule still counts against the others", async () => {
    const rules = (n: number) => [
      { key: `email:${n}@example.com`, limit: 1, windowSeconds: 3600 },
      { key: "ip:2", limit: 100, windowSeconds: 60 },
    ];
    const results = await Promise.all([1, 1, 2, 3].map((n) => outcome(limiter.hit("codes", rules(n)))));
    expect(results).toEqual(expect.arrayContaining(["ok", "429", "ok", "ok"]));
    expect(results.filter((r) => r === "429")).toHaveLength(1);
    const rows = await t.db.rateLimitCounter.findMany({ where: { key: { startsWith: "codes|" } }, orderBy: { key: "asc" } });
    expect(rows.map((r) => [r.key, r.count])).toEqual([
      ["codes|email:1@example.com", 2],
      ["codes|email:2@example.com", 1],
      ["codes|email:3@example.com", 1],
      ["codes|ip:2", 4],
    ]);
    // windows start on their own boundary, stored as UTC like every Prisma timestamp
    const ip = rows.find((r) => r.key === "codes|ip:2")!;
    expect(ip.windowStart.getTime() % 60_000).toBe(0);
    expect(Math.abs(Date.now() - ip.windowStart.getTime())).toBeLessThan(61_000);
    expect(await outcome(limiter.hit("other", [{ key: "ip:2", limit: 1, windowSeconds: 60 }]))).toBe("ok");
  });
});
