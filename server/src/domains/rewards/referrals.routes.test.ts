import crypto from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MANY_LOGINS, savedAccount } from "../../../../tests/account-utils.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { paidPackOrder } from "../../../../tests/order-utils.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { REFERRAL_HEADER, REWARDS_SETTING, type RewardSettings } from "../../contract/rewards.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";
import { DEVICE_COOKIE } from "../../http/client-context.ts";
import { seedProducts } from "../products/products.seed.ts";

// Issue 32 item 4: a gift to both sides when the invited account first pays; self-referral and ban evasion refused.

let t: TestApp;
let smtp: FakeSmtp;
let packId: number;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, ...MANY_LOGINS });
  await seedProducts(t.db);
  packId = (await t.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const GIFTS: Partial<RewardSettings> = { referralInviterCredits: 30, referralInviteeCredits: 20 };
beforeEach(() => t.db.siteSetting.upsert({ where: { key: REWARDS_SETTING }, create: { key: REWARDS_SETTING, value: GIFTS }, update: { value: GIFTS } }));

const device = () => crypto.randomBytes(18).toString("base64url");
const unique = () => crypto.randomBytes(4).toString("hex");

let hosts = 0;
/** An address of its own (the app trusts the loopback proxy's X-Forwarded-For) and a browser fingerprint of its own. */
const address = () => `198.51.100.${++hosts}`;
const fingerprint = () => crypto.randomBytes(16).toString("hex");

/**
 * A saved account started in its own browser (device cookie, fingerprint) from its own address, by an invitation link
 * when `code` is given.
 */
async function person(opts: { email?: string; device?: string; code?: string; fingerprint?: string; ip?: string } = {}) {
  const headers: Record<string, string> = {
    cookie: `${DEVICE_COOKIE}=${opts.device ?? device()}`,
    "device-fingerprint": opts.fingerprint ?? fingerprint(),
    "x-forwarded-for": opts.ip ?? address(),
  };
  if (opts.code) headers[REFERRAL_HEADER] = opts.code;
  return savedAccount(t, smtp, opts.email ?? `p-${unique()}@example.com`, headers);
}

async function codeOf(token: string): Promise<string> {
  return (await t.http.get("/api/rewards/referral").set("token", token).expect(200)).body.data.code;
}

let orders = 0;
/** The account's order of the 150-credit pack, paid; `payerRef` as the provider names the payer. */
const pays = (userId: number, payerRef?: string) => paidPackOrder(t, packId, userId, `REF-${++orders}`, payerRef);

async function points(userId: number) {
  return (await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { points: true } })).points;
}

const referralOf = (inviteeId: number) => t.db.referral.findUnique({ where: { inviteeId } });

describe("a referral gift", () => {
  it("is given to both sides once, on the invited account's first payment only, with its reason in the ledger", async () => {
    const inviter = await person();
    const invitee = await person({ code: await codeOf(inviter.token) });
    expect(await referralOf(invitee.userId)).toMatchObject({ inviterId: inviter.userId, status: "pending" });
    await pays(invitee.userId);
    expect(await points(inviter.userId)).toBe(30);
    expect(await points(invitee.userId)).toBe(150 + 20);
    await pays(invitee.userId);
    expect(await points(inviter.userId)).toBe(30);
    expect(await points(invitee.userId)).toBe(300 + 20);
    const gifts = await t.db.ledgerEntry.findMany({ where: { reason: { startsWith: "referral_" }, userId: { in: [inviter.userId, invitee.userId] } } });
    expect(gifts.map((g) => [g.userId, g.delta, g.reason]).sort()).toEqual(
      [
        [inviter.userId, 30, "referral_inviter"],
        [invitee.userId, 20, "referral_invitee"],
      ].sort(),
    );
    const history = await t.http.get("/api/Personal/creditHistory").set("token", inviter.token).expect(200);
    expect(history.body.data.list[0]).toMatchObject({ delta: 30, label: "referral_inviter" });
    expect((await t.http.get("/api/rewards/referral").set("token", inviter.token).expect(200)).body.data).toMatchObject({ invited: 1, rewarded: 1 });
  });

  it("is given once when several first payments complete at once", async () => {
    const inviter = await person();
    const invitee = await person({ code: await codeOf(inviter.token) });
    await Promise.all(Array.from({ length: 6 }, () => pays(invitee.userId)));
    expect(await points(inviter.userId)).toBe(30);
    expect(await points(invitee.userId)).toBe(6 * 150 + 20);
    expect(await t.services.credits.findLedgerMismatches([inviter.userId, invitee.userId])).toEqual([]);
  });

  type Browser = { device: string; fingerprint: string; ip: string };
  it.each([
    ["same_device", async (inviter: Browser) => ({ device: inviter.device })],
    // issue 47 item 3: a fresh profile (no cookie) with the inviter's exact fingerprint, from elsewhere
    ["same_fingerprint", async (inviter: Browser) => ({ fingerprint: inviter.fingerprint })],
    // another browser on the inviter's address
    ["same_address", async (inviter: Browser) => ({ ip: inviter.ip })],
    ["same_email", async () => ({ email: "ann.lee+second@gmail.com" })],
  ])("is refused silently and recorded for staff: %s", async (refusal, invitee) => {
    const browser = { device: device(), fingerprint: fingerprint(), ip: address() };
    const inviter = await person({ ...browser, email: refusal === "same_email" ? `ann.lee@gmail.com` : undefined });
    const invited = await person({ ...(await invitee(browser)), code: await codeOf(inviter.token) });
    const order = await pays(invited.userId);
    // the invited person's payment goes through as any other: only the gift is withheld
    expect(await points(invited.userId)).toBe(150);
    expect(await points(inviter.userId)).toBe(0);
    expect(await referralOf(invited.userId)).toMatchObject({ status: "refused", refusal, orderId: order.id, inviterCredits: 0 });
  });

  it("is refused when the same payer pays for both (payment fingerprint), and when it is a banned account's", async () => {
    const inviter = await person();
    const card = `card:${unique()}`;
    await pays(inviter.userId, card);
    const invitee = await person({ code: await codeOf(inviter.token) });
    await pays(invitee.userId, card);
    expect(await referralOf(invitee.userId)).toMatchObject({ status: "refused", refusal: "same_payment" });

    const banned = await person();
    const stolen = `card:${unique()}`;
    await pays(banned.userId, stolen);
    const moderator = await staffMember(t, ["moderator"]);
    await t.services.moderation.ban(moderator.staffId, banned.userId, "Chargeback fraud");
    const evader = await person({ code: await codeOf(inviter.token) });
    await pays(evader.userId, stolen);
    expect(await referralOf(evader.userId)).toMatchObject({ status: "refused", refusal: "banned_payment" });
    expect(await points(inviter.userId)).toBe(150);
  });

  it("is refused for an email that is a banned account's spelt another way", async () => {
    const inviter = await person();
    const banned = await person({ email: `mia.ray.${unique()}@gmail.com` });
    const moderator = await staffMember(t, ["moderator"]);
    await t.services.moderation.ban(moderator.staffId, banned.userId, "Spam");
    const email = (await t.db.user.findUniqueOrThrow({ where: { id: banned.userId } })).email!.replace("mia.ray.", "miaray.").replace("@", "+2@");
    const evader = await person({ email, code: await codeOf(inviter.token) });
    await pays(evader.userId);
    expect(await referralOf(evader.userId)).toMatchObject({ status: "refused", refusal: "banned_email" });
  });

  it("is not recorded for an unknown code, and a guest has no link to share", async () => {
    const invitee = await person({ code: "NOSUCHCODE" });
    expect(await referralOf(invitee.userId)).toBeNull();
    const guest = await visitor(t);
    expect((await t.http.get("/api/rewards/referral").set("token", guest.token).expect(403)).body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
  });
});

describe("staff reverse a fraudulent referral", () => {
  it("take back both gifts through the ledger, never below zero, audited, once; a moderator may look but not reverse", async () => {
    const inviter = await person();
    const invitee = await person({ code: await codeOf(inviter.token) });
    await pays(invitee.userId);
    // the inviter already spent 25 of its 30
    await t.services.credits.charge({ userId: inviter.userId, amount: 25, reason: "generation", idempotencyKey: `spent-${inviter.userId}` });
    const id = (await referralOf(invitee.userId))!.id;
    const moderator = await staffMember(t, ["moderator"]);
    await t.http.get(`/admin/api/referrals/${id}`).set("token", moderator.token).expect(200);
    await t.http.post(`/admin/api/referrals/${id}/reverse`).set("token", moderator.token).send({ reason: "Same person" }).expect(403);
    const support = await staffMember(t, ["support"]);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.http.post(`/admin/api/referrals/${id}/reverse`).set("token", support.token).send({ reason: "Same person, two accounts" }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await points(inviter.userId)).toBe(0);
    expect(await points(invitee.userId)).toBe(150);
    expect(await referralOf(invitee.userId)).toMatchObject({ status: "reversed", reversedById: support.staffId });
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Referral", resourceId: String(id) } });
    expect(audit).toMatchObject({ action: "reverse_referral", staffId: support.staffId, reason: "Same person, two accounts" });
    expect(await t.services.credits.findLedgerMismatches([inviter.userId, invitee.userId])).toEqual([]);
    // the day's figures count it
    const days = await t.http.get("/admin/api/reward-days").set("token", support.token).expect(200);
    expect(days.body[0]).toMatchObject({ referrals_reversed: expect.any(Number), referrals_paid: expect.any(Number) });
    expect(days.body[0].referrals_reversed).toBeGreaterThanOrEqual(1);
  });

  it("a person cannot read the console's referrals", async () => {
    const a = await person();
    await t.http.get("/admin/api/referrals").set("token", a.token).expect(401);
  });
});
