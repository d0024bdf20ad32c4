import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MANY_LOGINS, savedAccount } from "../../../../tests/account-utils.ts";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";
import { REWARD_MESSAGES, REWARDS_SETTING, type RewardSettings } from "../../contract/rewards.ts";

// Issue 47 item 2 (docs/decisions/345): eight new email accounts from one address and one device fingerprint each got
// the daily gift. One gift per device and address a day, a minimum account age, a daily cap per network.

let t: TestApp;
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, ...MANY_LOGINS });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function setRewards(value: Partial<RewardSettings>) {
  await t.db.siteSetting.upsert({ where: { key: REWARDS_SETTING }, create: { key: REWARDS_SETTING, value }, update: { value } });
}

let n = 0;
/** A saved account made `hoursOld` hours ago, signed in from `headers`' browser and address. */
async function account(headers: Record<string, string>, hoursOld = 48) {
  const a = await savedAccount(t, smtp, `farm-${++n}-${Date.now()}@example.com`, headers);
  await t.db.user.update({ where: { id: a.userId }, data: { createdAt: new Date(Date.now() - hoursOld * 3_600_000) } });
  return a;
}
const checkIn = (token: string, headers: Record<string, string>) => t.http.post("/api/rewards/checkIn").set(headers).set("token", token).send({});
const fingerprint = (i: number) => `f${String(i).padStart(15, "0")}`;
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

let block = 0;
/** A /24 of its own for each test, so the tests' gifts do not count against each other. */
const freshNetwork = () => `203.0.${++block}`;

beforeEach(async () => {
  await setRewards({ checkInCredits: 2, checkInMinAccountHours: 24, checkInNetworkDailyCap: 3 });
});

describe("daily gifts farmed with many accounts", () => {
  it("eight accounts from one address and one fingerprint, tapping at once: one gift, seven refused, nothing else moves", async () => {
    const from = { "x-forwarded-for": `${freshNetwork()}.7`, "device-fingerprint": fingerprint(1) };
    const accounts = [];
    for (let i = 0; i < 8; i++) accounts.push(await account(from));
    const answers = await Promise.all(accounts.map((a) => checkIn(a.token, from)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((r) => r.status === 409)) expect(r.body.msg).toBe(REWARD_MESSAGES.deviceTaken);
    const points = await Promise.all(accounts.map((a) => balance(a.userId)));
    expect(points.reduce((x, y) => x + y, 0)).toBe(2);
    expect(await t.db.ledgerEntry.count({ where: { userId: { in: accounts.map((a) => a.userId) } } })).toBe(1);
  });

  it("the same fingerprint from other addresses, or the same address with another browser, is the same one gift", async () => {
    const net = freshNetwork();
    const first = await account({ "x-forwarded-for": `${net}.1`, "device-fingerprint": fingerprint(2) });
    await checkIn(first.token, { "x-forwarded-for": `${net}.1`, "device-fingerprint": fingerprint(2) }).expect(200);
    // a fresh profile (no cookie) on another network with the same fingerprint
    const sameBrowser = await account({ "x-forwarded-for": `${freshNetwork()}.9`, "device-fingerprint": fingerprint(2) });
    expect((await checkIn(sameBrowser.token, { "x-forwarded-for": `${freshNetwork()}.9` }).expect(409)).body.msg).toBe(REWARD_MESSAGES.deviceTaken);
    // another browser, the first one's address, without sending a fingerprint
    const sameAddress = await account({ "x-forwarded-for": `${net}.1`, "device-fingerprint": fingerprint(3) });
    await checkIn(sameAddress.token, { "x-forwarded-for": `${net}.1` }).expect(409);
    expect([await balance(sameBrowser.userId), await balance(sameAddress.userId)]).toEqual([0, 0]);
  });

  it("a network takes at most its daily cap however many addresses and browsers it uses; a day later it may again", async () => {
    const net = freshNetwork();
    const ok = [];
    for (let i = 0; i < 4; i++) {
      const from = { "x-forwarded-for": `${net}.${10 + i}`, "device-fingerprint": fingerprint(100 + block * 10 + i) };
      const a = await account(from);
      ok.push((await checkIn(a.token, from)).status);
    }
    expect(ok).toEqual([200, 200, 200, 409]);
    // the gifts were a day ago: the network may have its gifts again
    await t.db.checkIn.updateMany({ where: { network: `${net}.0/24` }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    const from = { "x-forwarded-for": `${net}.99`, "device-fingerprint": fingerprint(200 + block) };
    await checkIn((await account(from)).token, from).expect(200);
  });

  it("an account younger than the minimum age waits, and is told so", async () => {
    const from = { "x-forwarded-for": `${freshNetwork()}.5`, "device-fingerprint": fingerprint(300) };
    const young = await account(from, 2);
    expect((await checkIn(young.token, from).expect(409)).body.msg).toBe(REWARD_MESSAGES.accountTooNew);
    expect(await balance(young.userId)).toBe(0);
    await t.db.user.update({ where: { id: young.userId }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    await checkIn(young.token, from).expect(200);
  });

  it("the console shows who got gifts from where, filtered by network, address or fingerprint", async () => {
    const net = freshNetwork();
    const from = { "x-forwarded-for": `${net}.42`, "device-fingerprint": fingerprint(400) };
    const a = await account(from);
    await checkIn(a.token, from).expect(200);
    const staff = await staffMember(t, ["support"]);
    const byNetwork = await t.http
      .get("/admin/api/check-ins")
      .query({ filter: JSON.stringify({ network: `${net}.0/24` }) })
      .set("token", staff.token)
      .expect(200);
    expect(byNetwork.body).toHaveLength(1);
    expect(byNetwork.body[0]).toMatchObject({ userId: a.userId, credits: 2, ip: `${net}.42`, network: `${net}.0/24`, fingerprints: [fingerprint(400)] });
    expect(byNetwork.body[0].deviceIds.length).toBe(1);
    const byPrint = await t.http
      .get("/admin/api/check-ins")
      .query({ filter: JSON.stringify({ fingerprint: fingerprint(400) }) })
      .set("token", staff.token)
      .expect(200);
    expect(byPrint.body.map((r: { userId: number }) => r.userId)).toEqual([a.userId]);
    const marketer = await staffMember(t, ["marketer"]);
    await t.http.get("/admin/api/check-ins").set("token", marketer.token).expect(403);
  });
});
