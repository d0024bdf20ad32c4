import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { photo } from "../../../../tests/fixtures/media.ts";
import { registeredUser, uploadImage } from "../../../../tests/training-utils.ts";
import { DISPUTE_WINDOW_DAYS, PAYOUT_MESSAGES as M, PAYOUT_MIN_CREDITS } from "../../contract/creator-payouts.ts";

let t: TestApp;
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(() => t?.close());

type Who = { token: string; userId: number };
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const grant = (userId: number, amount: number) =>
  t.services.credits.grant({ userId, amount, reason: "test", idempotencyKey: `test:${userId}:${Math.random()}` });
const post = (token: string, path: string, body: Record<string, unknown>) => t.http.post(path).set("token", token).send(body);
const get = (token: string, path: string) => t.http.get(path).set("token", token);
const earnings = async (c: Who) => (await get(c.token, "/api/Subscribe/earnings").expect(200)).body.data;
const askPayout = (c: Who, amount: number, key = `payout-${Math.random()}`) => post(c.token, "/api/Subscribe/requestPayout", { amount, idempotency_key: key });

/** A registered account that published its page (from a finished character model), taking requests at `price`. */
async function creator(price = 100): Promise<Who> {
  const who = await registeredUser(t);
  const cover = await uploadImage(t, who.token, await photo(320, 400));
  const model = await t.db.characterModel.create({
    data: {
      userId: who.userId,
      name: `Payee ${++n}`,
      homeLink: `Payee${n}x${who.userId}`,
      coverUploadId: cover,
      status: "success",
      cost: 5,
      triggerWord: "rvr",
    },
  });
  await post(who.token, "/api/Subscribe/publishPage", { role_id: model.id, request_price: price }).expect(200);
  return who;
}
/** A fan's request to the creator at the page's price, answered as far as `until` (the real escrow flow). */
async function request(c: Who, until: "pending" | "delivered", fan?: Who): Promise<{ id: number; fan: Who }> {
  const f = fan ?? (await visitor(t));
  const page = await t.db.creatorPage.findUniqueOrThrow({ where: { userId: c.userId } });
  await grant(f.userId, page.requestPrice!);
  const id = (
    await post(f.token, "/api/Subscribe/request", { home_link: page.homeLink, text: "A portrait", idempotency_key: `req-${Math.random()}` }).expect(200)
  ).body.data.id as number;
  if (until === "delivered") {
    await post(c.token, "/api/Subscribe/acceptRequest", { id }).expect(200);
    const task = await t.db.generationTask.create({
      data: { userId: c.userId, mode: "text_to_image", engine: "local", status: "succeeded", cost: 1, input: {}, outputKey: `media/${c.userId}/out.jpg` },
    });
    await post(c.token, "/api/Subscribe/deliverRequest", { id, task_id: task.id }).expect(200);
  }
  return { id, fan: f };
}

describe("creator earnings", () => {
  it("counts earned from the ledger's releases, escrow from open requests, and pays out no more than is payable", async () => {
    const c = await creator(150);
    expect(await earnings(c)).toMatchObject({ earned: 0, in_escrow: 0, payable: 0, paid_out: 0, min_payout: PAYOUT_MIN_CREDITS });
    await request(c, "delivered");
    await request(c, "delivered");
    await request(c, "pending");
    expect(await earnings(c)).toMatchObject({ earned: 300, in_escrow: 150, in_dispute: 0, payout_pending: 0, payable: 300, balance: 300 });
    // credits the creator spent are spent: payable never exceeds the balance
    await t.services.credits.charge({ userId: c.userId, amount: 50, reason: "generation", idempotencyKey: `spend-${c.userId}` });
    expect((await earnings(c)).payable).toBe(250);
    // other credits (a purchase) are not earnings, but credits are credits: what was earned may be paid out again
    await grant(c.userId, 1000);
    expect(await earnings(c)).toMatchObject({ earned: 300, payable: 300 });

    expect((await askPayout(c, PAYOUT_MIN_CREDITS - 1)).body).toMatchObject({ code: 400, msg: M.belowMinimum.replace("{{min}}", String(PAYOUT_MIN_CREDITS)) });
    expect((await askPayout(c, 301)).body).toMatchObject({ code: 409, msg: M.overPayable });
    const asked = await askPayout(c, 200, "payout-key-1").expect(200);
    expect(asked.body.data).toMatchObject({ amount: 200, status: "requested" });
    // the same key is the same payout
    expect((await askPayout(c, 200, "payout-key-1").expect(200)).body.data.id).toBe(asked.body.data.id);
    expect(await earnings(c)).toMatchObject({ earned: 300, payout_pending: 200, payable: 100, balance: 1250 - 200 });
  });

  it("makes one payout of 20 asked for at once for the whole payable amount", async () => {
    const c = await creator(100);
    for (let i = 0; i < 3; i++) await request(c, "delivered");
    expect((await earnings(c)).payable).toBe(300);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => askPayout(c, 300, `race-${i}-key`)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.body.msg === M.overPayable)).toBe(true);
    expect(await t.db.creatorPayout.count({ where: { creatorPage: { userId: c.userId } } })).toBe(1);
    expect(await balance(c.userId)).toBe(0);
    expect(await t.services.credits.findLedgerMismatches([c.userId])).toEqual([]);
  });

  it("answers more payouts asked for at once than the pool has connections, without stalling anyone else (issue 29)", async () => {
    const c = await creator(100);
    await request(c, "delivered");
    const bystander = await visitor(t);
    const started = Date.now();
    // each asker holds a connection in a transaction waiting on the page's lock: the lock holder must not need another
    const [answers, seen] = await Promise.all([
      Promise.all(Array.from({ length: 30 }, (_, i) => askPayout(c, 100, `crowd-${i}-key`))),
      (async () => {
        await new Promise((r) => setTimeout(r, 50));
        return get(bystander.token, "/api/Personal/personal_info");
      })(),
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(seen.status).toBe(200);
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(29).fill(409)]);
    expect(await t.db.creatorPayout.count({ where: { creatorPage: { userId: c.userId } } })).toBe(1);
    expect(await t.services.credits.findLedgerMismatches([c.userId])).toEqual([]);
  });

  it("lets one creator see only their own payouts, and a fan none", async () => {
    const a = await creator(100);
    await request(a, "delivered");
    await askPayout(a, 100).expect(200);
    const b = await creator(100);
    expect((await get(b.token, "/api/Subscribe/payouts").expect(200)).body.data.list).toEqual([]);
    expect((await get(a.token, "/api/Subscribe/payouts").expect(200)).body.data.list).toHaveLength(1);
    expect((await earnings(b)).payout_pending).toBe(0);
    const fan = await visitor(t);
    expect((await get(fan.token, "/api/Subscribe/earnings")).status).toBe(403);
    expect((await askPayout(fan, 100)).status).toBe(403);
  });
});

describe("the payout queue", () => {
  async function payoutOf(amount = 100) {
    const c = await creator(amount);
    await request(c, "delivered");
    const id = (await askPayout(c, amount).expect(200)).body.data.id as number;
    return { c, id };
  }
  const decide = (token: string, id: number, what: "approve" | "reject", body: Record<string, unknown>) =>
    post(token, `/admin/api/payouts/${id}/${what}`, body);

  it("approves with the transfer's reference: the credits stay gone, audited, and the creator sees it paid", async () => {
    const support = await staffMember(t, ["support"]);
    const { c, id } = await payoutOf();
    const list = await get(support.token, `/admin/api/payouts?filter=${encodeURIComponent(JSON.stringify({ status: "requested" }))}`).expect(200);
    expect(list.body.map((p: { id: number }) => p.id)).toContain(id);
    expect((await decide(support.token, id, "approve", { reference: "" })).body.msg).toBe(M.referenceRequired);
    const approved = await decide(support.token, id, "approve", { reference: "SEPA-2026-0042" }).expect(200);
    expect(approved.body).toMatchObject({ status: "approved", reference: "SEPA-2026-0042", decidedById: support.staffId });
    expect(await balance(c.userId)).toBe(0);
    expect(await earnings(c)).toMatchObject({ earned: 100, paid_out: 100, payout_pending: 0, payable: 0 });
    expect((await decide(support.token, id, "reject", { reason: "changed my mind" })).body).toMatchObject({ code: 409, msg: M.notOpen });
    const audit = await t.db.auditLog.findMany({ where: { resource: "CreatorPayout", resourceId: String(id) } });
    expect(audit.map((a) => [a.action, a.staffId, a.reason])).toEqual([["approve_payout", support.staffId, "SEPA-2026-0042"]]);
  });

  it("returns a rejected payout's credits once, whatever the clicks, and approve racing reject ends in one outcome", async () => {
    const support = await staffMember(t, ["support"]);
    const admin = await staffMember(t, ["admin"]);
    const { c, id } = await payoutOf();
    const rejects = await Promise.all(
      Array.from({ length: 10 }, (_, i) => decide(i % 2 ? support.token : admin.token, id, "reject", { reason: "Bank details do not match" })),
    );
    expect(rejects.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await balance(c.userId)).toBe(100);
    expect(await t.db.ledgerEntry.count({ where: { reference: `creator_payout:${id}`, reason: "creator_payout_return" } })).toBe(1);
    expect(await earnings(c)).toMatchObject({ payable: 100, payout_pending: 0, paid_out: 0 });

    const second = (await askPayout(c, 100).expect(200)).body.data.id as number;
    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 ? decide(support.token, second, "approve", { reference: `TX-${i}-ref` }) : decide(admin.token, second, "reject", { reason: "Not this time" }),
      ),
    );
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1);
    const row = await t.db.creatorPayout.findUniqueOrThrow({ where: { id: second } });
    const returns = await t.db.ledgerEntry.count({ where: { reference: `creator_payout:${second}`, reason: "creator_payout_return" } });
    expect(returns).toBe(row.status === "rejected" ? 1 : 0);
    expect(await balance(c.userId)).toBe(row.status === "rejected" ? 100 : 0);
    expect(await t.db.auditLog.count({ where: { resource: "CreatorPayout", resourceId: String(second) } })).toBe(1);
    expect(await t.services.credits.findLedgerMismatches([c.userId])).toEqual([]);
  });

  it("emails the creator the decision once, in their language, however often it is clicked", async () => {
    const support = await staffMember(t, ["support"]);
    const mails = async (userId: number) => {
      const { email } = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
      return t.db.outboxEmail.findMany({ where: { to: email! } });
    };
    const approved = await payoutOf();
    await t.db.user.update({ where: { id: approved.c.userId }, data: { language: "ja" } });
    const clicks = await Promise.all(Array.from({ length: 20 }, () => decide(support.token, approved.id, "approve", { reference: "SEPA-77-REF" })));
    expect(clicks.filter((r) => r.status === 200)).toHaveLength(1);
    await decide(support.token, approved.id, "approve", { reference: "SEPA-77-REF" }).expect(409);
    const [ja] = await mails(approved.c.userId);
    expect(await mails(approved.c.userId)).toHaveLength(1);
    expect(ja.subject).toBe("Reverie: 100クレジットの出金が承認されました");
    expect(ja.body).toContain(`#${approved.id}`);
    expect(ja.body).toContain("SEPA-77-REF");

    const rejected = await payoutOf();
    await t.db.user.update({ where: { id: rejected.c.userId }, data: { language: "ru" } });
    await Promise.all(Array.from({ length: 10 }, () => decide(support.token, rejected.id, "reject", { reason: "Реквизиты не совпадают" })));
    const [ru] = await mails(rejected.c.userId);
    expect(await mails(rejected.c.userId)).toHaveLength(1);
    expect(ru.subject).toBe("Reverie: выплата 100 кредитов не одобрена");
    expect(ru.body).toContain("Причина: Реквизиты не совпадают");

    // English for anyone else; an account without an email is decided all the same, with nothing to send
    const plain = await payoutOf();
    await decide(support.token, plain.id, "reject", { reason: "Bank details do not match" }).expect(200);
    expect((await mails(plain.c.userId)).map((m) => m.subject)).toEqual(["Reverie: your payout of 100 credits was not approved"]);
    const silent = await payoutOf();
    await t.db.user.update({ where: { id: silent.c.userId }, data: { email: null } });
    await decide(support.token, silent.id, "approve", { reference: "TX-NO-MAIL" }).expect(200);
  });

  it("refuses the decision to a creator (their own payout), to a moderator, and to anyone signed out", async () => {
    const { c, id } = await payoutOf();
    expect((await decide(c.token, id, "approve", { reference: "self-paid-1" })).status).toBe(401);
    expect((await get(c.token, "/admin/api/payouts")).status).toBe(401);
    const moderator = await staffMember(t, ["moderator"]);
    expect((await decide(moderator.token, id, "approve", { reference: "mod-paid-1" })).status).toBe(403);
    expect((await get(moderator.token, "/admin/api/payouts")).status).toBe(403);
    expect((await t.http.post(`/admin/api/payouts/${id}/approve`).send({ reference: "anon-paid" })).status).toBe(401);
    expect((await t.db.creatorPayout.findUniqueOrThrow({ where: { id } })).status).toBe("requested");
  });
});

describe("requests in dispute", () => {
  const dispute = (fan: Who, id: number, reason = "Not what I asked for") => post(fan.token, "/api/Subscribe/disputeRequest", { id, reason });
  const resolve = (token: string, id: number, outcome: "refund" | "uphold", reason = "Looked at the delivery") =>
    post(token, `/admin/api/disputes/${id}/resolve`, { outcome, reason });

  it("lets a fan dispute only their own unsatisfying delivery, once, and keeps its price out of the payable credits", async () => {
    const c = await creator(120);
    const { id, fan } = await request(c, "delivered");
    // rated satisfied, or not rated: no dispute
    expect((await dispute(fan, id)).body).toMatchObject({ code: 409, msg: M.disputeNotAllowed });
    await post(fan.token, "/api/Subscribe/rateRequest", { id, satisfied: 0 }).expect(200);
    const stranger = await visitor(t);
    expect((await dispute(stranger, id)).status).toBe(404);
    expect((await dispute(fan, id, "")).body.msg).toBe(M.disputeReasonRequired);
    const tries = await Promise.all(Array.from({ length: 5 }, () => dispute(fan, id)));
    expect(tries.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await earnings(c)).toMatchObject({ earned: 120, in_dispute: 120, payable: 0 });
    expect((await askPayout(c, 120)).body.msg).toBe(M.overPayable);
    // a fan cannot resolve it
    expect((await resolve(fan.token, id, "refund")).status).toBe(401);

    const support = await staffMember(t, ["support"]);
    const listed = await get(support.token, `/admin/api/disputes?filter=${encodeURIComponent(JSON.stringify({ disputeStatus: "open" }))}`).expect(200);
    expect(listed.body.find((d: { id: number }) => d.id === id)).toMatchObject({ disputeReason: "Not what I asked for", price: 120, creatorUserId: c.userId });
    await resolve(support.token, id, "uphold").expect(200);
    expect(await earnings(c)).toMatchObject({ earned: 120, in_dispute: 0, payable: 120 });
    expect((await resolve(support.token, id, "refund")).body.msg).toBe(M.disputeClosed);
    expect(await balance(fan.userId)).toBe(0);

    // past the window a delivery is the creator's for good
    const late = await request(c, "delivered");
    await post(late.fan.token, "/api/Subscribe/rateRequest", { id: late.id, satisfied: 0 }).expect(200);
    await t.db.customRequest.update({ where: { id: late.id }, data: { answeredAt: new Date(Date.now() - (DISPUTE_WINDOW_DAYS + 1) * 86_400_000) } });
    expect((await dispute(late.fan, late.id)).body.msg).toBe(M.disputeNotAllowed);
  });

  it("refunds the fan once under concurrent clicks, taking the price back from the creator's earnings", async () => {
    const c = await creator(120);
    const { id, fan } = await request(c, "delivered");
    await post(fan.token, "/api/Subscribe/rateRequest", { id, satisfied: 0 }).expect(200);
    await dispute(fan, id).expect(200);
    const support = await staffMember(t, ["support"]);
    const admin = await staffMember(t, ["admin"]);
    const clicks = await Promise.all(Array.from({ length: 10 }, (_, i) => resolve(i % 2 ? support.token : admin.token, id, i % 3 ? "refund" : "uphold")));
    expect(clicks.filter((r) => r.status === 200)).toHaveLength(1);
    const row = await t.db.customRequest.findUniqueOrThrow({ where: { id } });
    const refunded = row.disputeStatus === "refunded";
    expect(await balance(fan.userId)).toBe(refunded ? 120 : 0);
    expect(await balance(c.userId)).toBe(refunded ? 0 : 120);
    expect(await t.db.ledgerEntry.count({ where: { reference: `custom_request:${id}`, reason: "custom_request_dispute_refund" } })).toBe(refunded ? 1 : 0);
    expect(await t.db.auditLog.count({ where: { resource: "CustomRequest", resourceId: String(id) } })).toBe(1);
    expect(await earnings(c)).toMatchObject({ earned: refunded ? 0 : 120, in_dispute: 0, shortfall: 0 });
  });

  it("never makes the creator's balance negative: what was spent is recorded as the shortfall and owed from later earnings", async () => {
    const c = await creator(120);
    const { id, fan } = await request(c, "delivered");
    await post(fan.token, "/api/Subscribe/rateRequest", { id, satisfied: 0 }).expect(200);
    await dispute(fan, id).expect(200);
    // the creator spends most of it before staff decide
    await t.services.credits.charge({ userId: c.userId, amount: 100, reason: "generation", idempotencyKey: `spend-${c.userId}` });
    const support = await staffMember(t, ["support"]);
    const resolved = await resolve(support.token, id, "refund", "Delivery was another person").expect(200);
    expect(resolved.body).toMatchObject({ disputeStatus: "refunded", disputeShortfall: 100 });
    expect(await balance(c.userId)).toBe(0);
    expect(await balance(fan.userId)).toBe(120);
    expect(await earnings(c)).toMatchObject({ earned: 100, shortfall: 100, payable: 0 });
    // what is owed is held back from later earnings: never paid out in cash
    await request(c, "delivered");
    expect(await earnings(c)).toMatchObject({ earned: 220, shortfall: 100, payable: 20, balance: 120 });
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "CustomRequest", resourceId: String(id) } });
    expect(audit).toMatchObject({
      action: "dispute_refund",
      staffId: support.staffId,
      reason: "Delivery was another person",
      after: { disputeStatus: "refunded", price: 120, shortfall: 100 },
    });
    expect(await t.services.credits.findLedgerMismatches([c.userId, fan.userId])).toEqual([]);
  });
});
