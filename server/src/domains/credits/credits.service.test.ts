import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../../../tests/db-utils.ts";
import { createAuditService } from "../audit/audit.service.ts";
import { createCreditsService, type CreditsService } from "./credits.service.ts";
import { createMetrics } from "../../metrics/metrics.ts";

let t: TestDb;
let credits: CreditsService;
beforeAll(async () => {
  t = await createTestDb();
  credits = createCreditsService(t.db, createAuditService(t.db), createMetrics().ledger);
});
afterAll(() => t.drop());
// The books must balance after every test, concurrent or not.
afterEach(async () => {
  expect(await credits.findLedgerMismatches()).toEqual([]);
});

const newUser = async () => (await t.db.user.create({ data: {} })).id;

describe("credits ledger", () => {
  it("200 concurrent charges against a balance covering 50 succeed exactly 50 times", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 50, reason: "test", idempotencyKey: `seed:${userId}` });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => credits.charge({ userId, amount: 1, reason: "generation", idempotencyKey: `charge:${userId}:${i}` })),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected");
    expect(ok).toHaveLength(50);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 402, message: "Please get points first" });
    expect(await credits.balance(userId)).toEqual({ points: 0, all_points: 50 });
    expect(await t.db.ledgerEntry.count({ where: { userId } })).toBe(51);
  });

  it("a retried movement with the same key moves credits once, even concurrently", async () => {
    const userId = await newUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => credits.grant({ userId, amount: 7, reason: "purchase", idempotencyKey: `order:x${userId}:paid` })),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(results.every((r) => r.balance === 7)).toBe(true);
    expect((await credits.balance(userId)).points).toBe(7);
  });

  it("refuses a key reused for a different movement", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 5, reason: "bonus", idempotencyKey: `reuse:${userId}` });
    await expect(credits.grant({ userId, amount: 6, reason: "bonus", idempotencyKey: `reuse:${userId}` })).rejects.toMatchObject({ status: 409 });
    expect((await credits.balance(userId)).points).toBe(5);
  });

  it("a charge larger than the balance changes nothing", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 3, reason: "bonus", idempotencyKey: `g:${userId}` });
    await expect(credits.charge({ userId, amount: 4, reason: "generation", idempotencyKey: `c:${userId}` })).rejects.toMatchObject({ status: 402 });
    expect((await credits.balance(userId)).points).toBe(3);
    expect(await t.db.ledgerEntry.findUnique({ where: { idempotencyKey: `c:${userId}` } })).toBeNull();
  });

  it("answers 404 for an account that does not exist", async () => {
    await expect(credits.grant({ userId: 987654, amount: 1, reason: "bonus", idempotencyKey: "ghost" })).rejects.toMatchObject({ status: 404 });
  });

  it("stamps every entry with the balance after it", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 10, reason: "bonus", idempotencyKey: `a:${userId}` });
    await credits.charge({ userId, amount: 4, reason: "generation", idempotencyKey: `b:${userId}` });
    await credits.refund({ userId, amount: 4, reason: "generation_failed", idempotencyKey: `c:${userId}` });
    const entries = await t.db.ledgerEntry.findMany({ where: { userId }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.delta, e.balanceAfter])).toEqual([
      [10, 10],
      [-4, 6],
      [4, 10],
    ]);
    expect(await credits.balance(userId)).toEqual({ points: 10, all_points: 10 });
  });
});

describe("staff credit adjustments", () => {
  const staff = () => t.db.staff.create({ data: { username: `support${Math.random()}`, passwordHash: "x", totpSecret: "x", roles: ["support"] } });

  it("requires a reason and a whole non-zero delta, changing nothing otherwise", async () => {
    const { id: staffId } = await staff();
    const userId = await newUser();
    await expect(credits.adjustCredits({ staffId, userId, delta: 5, reason: "  " })).rejects.toMatchObject({
      status: 400,
      message: "Please enter a reason for the adjustment",
    });
    await expect(credits.adjustCredits({ staffId, userId, delta: 0, reason: "goodwill" })).rejects.toMatchObject({ status: 400 });
    await expect(credits.adjustCredits({ staffId, userId, delta: 1.5, reason: "goodwill" })).rejects.toMatchObject({ status: 400 });
    expect(await t.db.auditLog.count({ where: { resourceId: String(userId) } })).toBe(0);
    expect((await credits.balance(userId)).points).toBe(0);
  });

  it("writes the ledger entry and the audit row together", async () => {
    const { id: staffId } = await staff();
    const userId = await newUser();
    const up = await credits.adjustCredits({ staffId, userId, delta: 12, reason: "goodwill for a failed render", idempotencyKey: "click-1" });
    expect(up).toEqual({ applied: true, balance: 12 });
    const again = await credits.adjustCredits({ staffId, userId, delta: 12, reason: "goodwill for a failed render", idempotencyKey: "click-1" });
    expect(again.applied).toBe(false);
    await credits.adjustCredits({ staffId, userId, delta: -2, reason: "duplicate goodwill" });
    const audit = await t.db.auditLog.findMany({ where: { resource: "User", resourceId: String(userId) }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.staffId, a.action, a.reason, a.before, a.after])).toEqual([
      [staffId, "adjust_credits", "goodwill for a failed render", { points: 0 }, { points: 12 }],
      [staffId, "adjust_credits", "duplicate goodwill", { points: 12 }, { points: 10 }],
    ]);
    const entries = await t.db.ledgerEntry.findMany({ where: { userId }, orderBy: { id: "asc" } });
    expect(entries.map((e) => [e.delta, e.staffId, e.note])).toEqual([
      [12, staffId, "goodwill for a failed render"],
      [-2, staffId, "duplicate goodwill"],
    ]);
    expect(await credits.balance(userId)).toEqual({ points: 10, all_points: 12 });
  });

  it("cannot take a balance below zero and then leaves no audit row", async () => {
    const { id: staffId } = await staff();
    const userId = await newUser();
    await expect(credits.adjustCredits({ staffId, userId, delta: -1, reason: "chargeback" })).rejects.toMatchObject({ status: 402 });
    expect(await t.db.auditLog.count({ where: { resourceId: String(userId) } })).toBe(0);
  });
});

describe("taking back what the balance still holds", () => {
  it("chargeUpTo takes at most the balance, never below zero, even with charges racing it", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 30, reason: "custom_request_earnings", idempotencyKey: `earn:${userId}` });
    // the person spends while the take-back runs: together they never take more than there was
    const [taken, ...spent] = await Promise.all([
      t.db.$transaction((tx) => credits.chargeUpTo({ userId, amount: 50, reason: "custom_request_clawback", idempotencyKey: `claw:${userId}` }, tx)),
      ...Array.from({ length: 5 }, (_, i) =>
        credits.charge({ userId, amount: 10, reason: "generation", idempotencyKey: `spend:${userId}:${i}` }).then(
          () => 10,
          () => 0,
        ),
      ),
    ]);
    expect(taken + spent.reduce((a, b) => a + b, 0)).toBe(30);
    expect((await credits.balance(userId)).points).toBe(0);
    // nothing left: nothing taken, and no empty ledger entry
    expect(
      await t.db.$transaction((tx) => credits.chargeUpTo({ userId, amount: 5, reason: "custom_request_clawback", idempotencyKey: `claw2:${userId}` }, tx)),
    ).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId, idempotencyKey: `claw2:${userId}` } })).toBe(0);
  });

  it("sums a person's movements for some reasons only", async () => {
    const userId = await newUser();
    await credits.grant({ userId, amount: 40, reason: "custom_request_earnings", idempotencyKey: `e1:${userId}` });
    await credits.grant({ userId, amount: 500, reason: "purchase", idempotencyKey: `p1:${userId}` });
    await credits.charge({ userId, amount: 15, reason: "custom_request_clawback", idempotencyKey: `c1:${userId}` });
    expect(await credits.sumOfReasons(userId, ["custom_request_earnings", "custom_request_clawback"])).toBe(25);
    expect(await credits.sumOfReasons(userId, ["membership_income"])).toBe(0);
  });
});
