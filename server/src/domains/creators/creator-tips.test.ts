import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, holdLock, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { registeredUser } from "../../../../tests/training-utils.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { TIP_DEFAULTS, TIP_LEDGER_REASON, TIP_MESSAGES as M, TIP_SETTING } from "../../contract/tips.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";
import { MSG } from "../../http/messages.ts";

/** Issue 32 item 5: tips from fans to creators, through the ledger, exactly once, as the creator's earnings. */
let t: TestApp;
let support: StaffLogin;
let moderator: StaffLogin;
let admin: StaffLogin;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  [support, moderator, admin] = [await staffMember(t, ["support"]), await staffMember(t, ["moderator"]), await staffMember(t, ["admin"])];
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Who = { token: string; userId: number };
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const grant = (userId: number, amount: number) => t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test:${userId}:${++n}` });
const post = (token: string | null, what: string, body: Record<string, unknown>) => {
  const req = t.http.post(`/api/Subscribe/${what}`);
  return (token ? req.set("token", token) : req).send(body);
};
const tip = (who: Who | null, link: string, amount: number, more: Record<string, unknown> = {}) =>
  post(who?.token ?? null, "tip", { home_link: link, amount, idempotency_key: `tip-${++n}-${Math.random()}`, ...more });
const tipsOf = (who: Who, as: "fan" | "creator") => t.http.get("/api/Subscribe/tips").query({ as }).set("token", who.token);
const ledger = (userId: number, reason: string) => t.db.ledgerEntry.findMany({ where: { userId, reason }, orderBy: { id: "asc" } });
const noMismatch = async (...ids: number[]) => expect(await t.services.credits.findLedgerMismatches(ids)).toEqual([]);

/** A registered creator with a page made directly (no training), and a fan with `credits`. */
async function creatorAndFan(link: string, credits = 100): Promise<{ c: Who; fan: Who }> {
  const c = await registeredUser(t);
  await post(c.token, "createPage", { home_link: link, title: `Creator ${link}` }).expect(200);
  return { c, fan: await registeredUser(t, credits) };
}

describe("tipping a creator", () => {
  it("charges the fan, credits the creator's earnings once, and shows the tip with its message to both", async () => {
    const { c, fan } = await creatorAndFan("Tipped1");
    expect((await t.http.get("/api/Subscribe/tipSettings").expect(200)).body.data).toEqual(TIP_DEFAULTS);
    const res = await tip(fan, "tipped1", 30, { message: "  Love your work  " }).expect(200);
    expect(res.body.data).toMatchObject({ amount: 30, message: "Love your work", status: "completed", home_link: "Tipped1" });
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([70, 30]);
    expect(await ledger(fan.userId, TIP_LEDGER_REASON.sent)).toMatchObject([{ delta: -30, reference: `creator_tip:${res.body.data.id}` }]);
    expect(await ledger(c.userId, EARNING_REASON.tip)).toMatchObject([{ delta: 30 }]);
    const earnings = (await t.http.get("/api/Subscribe/earnings").set("token", c.token).expect(200)).body.data;
    expect(earnings).toMatchObject({ earned: 30, payable: 30 });
    expect((await tipsOf(c, "creator").expect(200)).body.data.list).toMatchObject([{ amount: 30, message: "Love your work" }]);
    expect((await tipsOf(fan, "fan").expect(200)).body.data.list).toMatchObject([{ amount: 30, creator: "Creator Tipped1" }]);
    await noMismatch(fan.userId, c.userId);
  });

  it("charges 20 parallel tips with one idempotency key once", async () => {
    const { c, fan } = await creatorAndFan("Tipped2");
    const body = { home_link: "Tipped2", amount: 10, idempotency_key: "one-tap-key-2" };
    const all = await Promise.all(Array.from({ length: 20 }, () => post(fan.token, "tip", body)));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(all.map((r) => r.body.data.id)).size).toBe(1);
    expect(await t.db.creatorTip.count({ where: { fanUserId: fan.userId } })).toBe(1);
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([90, 10]);
    await noMismatch(fan.userId, c.userId);
  });

  it("lets 20 different tips at once take only what the balance holds, never below zero", async () => {
    const { c, fan } = await creatorAndFan("Tipped3", 70);
    const all = await Promise.all(Array.from({ length: 20 }, () => tip(fan, "Tipped3", 10)));
    const ok = all.filter((r) => r.status === 200);
    expect(ok).toHaveLength(7);
    for (const r of all.filter((r) => r.status !== 200)) expect([r.status, r.body.msg]).toEqual([402, MSG.notEnoughCredits]);
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([0, 70]);
    expect(await t.db.creatorTip.count({ where: { fanUserId: fan.userId } })).toBe(7);
    await noMismatch(fan.userId, c.userId);
  });

  it("does not deadlock two fans tipping each other at once", async () => {
    const a = await creatorAndFan("Tipped4a");
    const b = await creatorAndFan("Tipped4b");
    await Promise.all([grant(a.c.userId, 100), grant(b.c.userId, 100)]);
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? tip(a.c, "Tipped4b", 5) : tip(b.c, "Tipped4a", 5))));
    expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect([await balance(a.c.userId), await balance(b.c.userId)]).toEqual([100, 100]);
  });

  it("refuses amounts outside staff's limits, a refused message, a library item of another page and one's own page, charging nothing", async () => {
    const { c, fan } = await creatorAndFan("Tipped5");
    const other = await creatorAndFan("Tipped5b");
    const range = (min: number, max: number) => M.amountRange.replace("{{min}}", String(min)).replace("{{max}}", String(max));
    expect((await tip(fan, "Tipped5", TIP_DEFAULTS.min - 1).expect(400)).body.msg).toBe(range(TIP_DEFAULTS.min, TIP_DEFAULTS.max));
    const setting = (value: unknown) => t.http.put(`/admin/api/site-settings/${TIP_SETTING}`).set("token", admin.token).send({ value });
    await t.http
      .post("/admin/api/site-settings")
      .set("token", admin.token)
      .send({ key: TIP_SETTING, value: { presets: [5, 2], min: 2, max: 20 } })
      .expect(200);
    expect((await t.http.get("/api/Subscribe/tipSettings").expect(200)).body.data).toEqual({ presets: [2, 5], min: 2, max: 20 });
    expect((await setting({ presets: [50], min: 2, max: 20 }).expect(400)).body.msg).toBe(M.settingsInvalid);
    expect((await tip(fan, "Tipped5", 21).expect(400)).body.msg).toBe(range(2, 20));
    await tip(fan, "Tipped5", 2).expect(200);
    await setting(TIP_DEFAULTS).expect(200);
    expect((await tip(fan, "Tipped5", 10, { message: "lolicon" }).expect(400)).body.msg).toBe(MSG.chatRefused);
    expect((await tip(fan, "Tipped5", 10, { message: "x".repeat(301) }).expect(400)).body.msg).toBe(M.messageTooLong.replace("{{max}}", "300"));
    const item = await t.db.creatorLibraryItem.create({ data: { creatorPageId: (await pageOf(other.c)).id, taskId: 999_999, visibility: "public" } });
    expect((await tip(fan, "Tipped5", 10, { library_item_id: item.id }).expect(400)).body.msg).toBe(M.itemNotOnPage);
    expect((await tip(c, "Tipped5", 10).expect(400)).body.msg).toBe(M.ownPage);
    await tip(fan, "Tipped5", 10, { amount: "ten" }).expect(400);
    expect(await balance(fan.userId)).toBe(98);
    expect(await t.db.creatorTip.count({ where: { creatorPageId: (await pageOf(c)).id } })).toBe(1);
  });

  it("refuses guests (save the account first) and anonymous callers", async () => {
    await creatorAndFan("Tipped6");
    const guest = await visitor(t);
    await grant(guest.userId, 50);
    expect((await tip(guest, "Tipped6", 10).expect(403)).body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    await tip(null, "Tipped6", 10).expect(401);
    expect(await balance(guest.userId)).toBe(50);
  });

  it("cannot tip a banned or taken-down creator, and a banned fan cannot tip", async () => {
    const { c, fan } = await creatorAndFan("Tipped7");
    const ban = (userId: number) => t.http.post(`/admin/api/users/${userId}/ban`).set("token", moderator.token).send({ reason: "Fraud" }).expect(200);
    await ban(c.userId);
    expect((await tip(fan, "Tipped7", 10).expect(404)).body.msg).toBe(CREATOR_MESSAGES.domainNotFound);
    const other = await creatorAndFan("Tipped7b");
    await t.db.creatorPage.update({ where: { userId: other.c.userId }, data: { state: "removed" } });
    expect((await tip(fan, "Tipped7b", 10).expect(404)).body.msg).toBe(CREATOR_MESSAGES.domainNotFound);
    const live = await creatorAndFan("Tipped7c");
    await ban(live.fan.userId);
    await tip(live.fan, "Tipped7c", 10).expect(403);
    expect(await balance(fan.userId)).toBe(100);
    expect(await balance(live.fan.userId)).toBe(100);
  });

  it("lets a ban racing a tip win, or the tip complete whole, never half", async () => {
    // the ban commits while the tip waits for the fan's row: the tip sees it and leaves nothing behind
    const { c, fan } = await creatorAndFan("Tipped8");
    const banning = await holdLock(t.testDb.url, "UPDATE users SET banned_at = now() WHERE id = $1", [fan.userId], 300);
    const refused = await tip(fan, "Tipped8", 10);
    await banning.released;
    expect([refused.status, refused.body.msg]).toEqual([403, M.fanBanned]);
    expect([await balance(fan.userId), await balance(c.userId), await t.db.creatorTip.count({ where: { fanUserId: fan.userId } })]).toEqual([100, 0, 0]);

    // a real ban through the console among 20 tips: each tip is whole (charged and earned) or absent
    const r = await creatorAndFan("Tipped8b", 200);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => tip(r.fan, "Tipped8b", 5)),
      t.http.post(`/admin/api/users/${r.fan.userId}/ban`).set("token", moderator.token).send({ reason: "Fraud" }),
    ]);
    const done = await t.db.creatorTip.findMany({ where: { fanUserId: r.fan.userId } });
    expect(results.filter((x) => x.status === 200)).toHaveLength(done.length + 1);
    expect(await ledger(r.fan.userId, TIP_LEDGER_REASON.sent)).toHaveLength(done.length);
    expect(await ledger(r.c.userId, EARNING_REASON.tip)).toHaveLength(done.length);
    expect([await balance(r.fan.userId), await balance(r.c.userId)]).toEqual([200 - 5 * done.length, 5 * done.length]);
    await noMismatch(r.fan.userId, r.c.userId);
  });

  it("shows a fan only their own tips and a creator only the tips to their own page", async () => {
    const a = await creatorAndFan("Tipped9a");
    const b = await creatorAndFan("Tipped9b");
    await tip(a.fan, "Tipped9a", 10, { message: "for A" }).expect(200);
    await tip(b.fan, "Tipped9b", 20, { message: "for B" }).expect(200);
    expect((await tipsOf(a.fan, "fan")).body.data.list.map((x: { message: string }) => x.message)).toEqual(["for A"]);
    expect((await tipsOf(b.fan, "fan")).body.data.list.map((x: { message: string }) => x.message)).toEqual(["for B"]);
    expect((await tipsOf(a.c, "creator")).body.data.list.map((x: { message: string }) => x.message)).toEqual(["for A"]);
    expect((await tipsOf(a.fan, "creator")).body.data.list).toEqual([]);
    await t.http.get("/admin/api/tips").set("token", moderator.token).expect(403);
  });
});

const pageOf = (c: Who) => t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
const reverse = (who: StaffLogin, id: number) => t.http.post(`/admin/api/tips/${id}/reverse`).set("token", who.token).send({ reason: "Stolen card" });

describe("reversing a fraudulent tip", () => {
  it("refunds the fan and takes the earning back once, audited; racing clicks reverse once", async () => {
    const { c, fan } = await creatorAndFan("Reversed1");
    const id = (await tip(fan, "Reversed1", 40).expect(200)).body.data.id as number;
    await reverse(moderator, id).expect(403);
    const all = await Promise.all(Array.from({ length: 10 }, () => reverse(support, id)));
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    expect(all.filter((r) => r.status === 409).map((r) => r.body.msg)).toEqual(Array(9).fill(M.alreadyReversed));
    expect(all.find((r) => r.status === 200)!.body).toMatchObject({ status: "reversed", reversalShortfall: 0, reversedById: support.staffId });
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([100, 0]);
    expect(await ledger(fan.userId, TIP_LEDGER_REASON.reversed)).toMatchObject([{ delta: 40 }]);
    expect(await ledger(c.userId, EARNING_REASON.tipClawback)).toMatchObject([{ delta: -40 }]);
    expect(await t.db.auditLog.count({ where: { action: "tip_reverse", resourceId: String(id) } })).toBe(1);
    expect((await t.http.get("/api/Subscribe/earnings").set("token", c.token)).body.data).toMatchObject({ earned: 0, payable: 0 });
    expect((await tipsOf(fan, "fan")).body.data.list[0].status).toBe("reversed");
    await noMismatch(fan.userId, c.userId);
  });

  it("holds back from payouts what it could not take back once paid out, as a dispute does", async () => {
    const { c, fan } = await creatorAndFan("Reversed2", 300);
    const first = (await tip(fan, "Reversed2", 150).expect(200)).body.data.id as number;
    await tip(fan, "Reversed2", 100).expect(200);
    await t.http.post("/api/Subscribe/requestPayout").set("token", c.token).send({ amount: 200, idempotency_key: "payout-rev-2" }).expect(200);
    const reversed = await reverse(support, first).expect(200);
    // the balance held 50 of the 150: the other 100 went out with the payout
    expect(reversed.body.reversalShortfall).toBe(100);
    expect([await balance(fan.userId), await balance(c.userId)]).toEqual([200, 0]);
    expect((await t.http.get("/api/Subscribe/earnings").set("token", c.token)).body.data).toMatchObject({ shortfall: 100, payable: 0 });
    await noMismatch(fan.userId, c.userId);
  });
});
