import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MANY_LOGINS, savedAccount } from "../../../../tests/account-utils.ts";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { REWARD_MESSAGES, REWARDS_SETTING, type RewardSettings } from "../../contract/rewards.ts";
import { SAVE_ACCOUNT_MESSAGE } from "../../contract/users.ts";
import { storedRewards } from "../site/site.rewards.ts";
import { createRewardsService } from "./rewards.service.ts";

// Issue 32 item 4: the daily check-in gift, once per day of the account's own time zone, through the ledger.

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
/** A saved account, its time zone stored (null: none yet). */
async function account(timeZone: string | null = null) {
  const a = await savedAccount(t, smtp, `daily-${++n}-${Date.now()}@example.com`);
  await t.db.user.update({ where: { id: a.userId }, data: { timeZone } });
  return a;
}

async function points(userId: number) {
  return (await t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { points: true } })).points;
}

// new accounts at once from one test client: the anti-farming rules are off here but where they are tested
const OPEN = { checkInMinAccountHours: 0, checkInNetworkDailyCap: 0 };
beforeEach(() => setRewards({ checkInCredits: 5, ...OPEN }));

/** A browser of its own on an address of its own (the app trusts the loopback proxy's X-Forwarded-For). */
let hosts = 0;
const elsewhere = () => {
  hosts++;
  return { ip: `198.51.${hosts >> 8}.${hosts & 255}`, device: { fingerprint: (1e15 + hosts).toString(16).padStart(16, "0") } };
};

describe("POST /api/rewards/checkIn", () => {
  it("20 check-ins at once give one gift, through the ledger with its reason; the rest are told it was taken today", async () => {
    const a = await account("Europe/Berlin");
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.http.post("/api/rewards/checkIn").set("token", a.token).send({})));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = answers.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    expect(refused[0].body.msg).toBe(REWARD_MESSAGES.checkedIn);
    expect(await points(a.userId)).toBe(5);
    const ledger = await t.db.ledgerEntry.findMany({ where: { userId: a.userId } });
    expect(ledger).toMatchObject([{ delta: 5, reason: "daily_check_in" }]);
    expect(await t.services.credits.findLedgerMismatches([a.userId])).toEqual([]);
    const history = await t.http.get("/api/Personal/creditHistory").set("token", a.token).expect(200);
    expect(history.body.data.list[0]).toMatchObject({ delta: 5, reason: "daily_check_in", label: "daily_check_in", balance_after: 5 });
    const status = await t.http.get("/api/rewards/checkIn").set("token", a.token).expect(200);
    expect(status.body.data).toMatchObject({ enabled: true, credits: 5, checked_in_today: true, streak: 1, time_zone: "Europe/Berlin" });
  });

  it("a guest may see the gift but not take it (save the account first)", async () => {
    const g = await visitor(t);
    expect((await t.http.get("/api/rewards/checkIn").set("token", g.token).expect(200)).body.data.checked_in_today).toBe(false);
    const res = await t.http.post("/api/rewards/checkIn").set("token", g.token).send({}).expect(403);
    expect(res.body.msg).toBe(SAVE_ACCOUNT_MESSAGE);
    expect(await points(g.userId)).toBe(0);
  });

  it("no one checks in for another account: a named account is refused and nothing moves", async () => {
    const a = await account();
    const b = await account();
    await t.http.post("/api/rewards/checkIn").set("token", a.token).send({ user_id: b.userId }).expect(400);
    expect([await points(a.userId), await points(b.userId)]).toEqual([0, 0]);
  });

  it("is refused while staff have it off (0), and a time zone that does not exist is refused", async () => {
    const a = await account();
    await setRewards({ checkInCredits: 0 });
    expect((await t.http.post("/api/rewards/checkIn").set("token", a.token).send({}).expect(409)).body.msg).toBe(REWARD_MESSAGES.checkInOff);
    await setRewards({ checkInCredits: 5, ...OPEN });
    const bad = await t.http.post("/api/rewards/checkIn").set("token", a.token).send({ time_zone: "Mars/Olympus" }).expect(400);
    expect(bad.body.msg).toBe(REWARD_MESSAGES.timeZone);
    expect(await points(a.userId)).toBe(0);
  });
});

describe("the day is the account's own", () => {
  let now = new Date();
  const rewards = () =>
    createRewardsService({
      db: t.db,
      credits: t.services.credits,
      audit: t.services.audit,
      settings: storedRewards,
      timeZoneOf: t.services.users.timeZoneOf,
      clock: () => now,
    });

  it("just before local midnight, then again the same local day (refused), then just after it (allowed)", async () => {
    const a = await account();
    const r = rewards();
    const from = elsewhere();
    // 23:59 in Tokyo (UTC+9) on the 27th; the browser names the zone at the first check-in, which stores it
    now = new Date("2026-11-27T14:59:00Z");
    expect(await r.checkIn(a.userId, "Asia/Tokyo", from)).toMatchObject({ local_date: "2026-11-27", credits: 5, points: 5 });
    expect((await t.db.user.findUniqueOrThrow({ where: { id: a.userId } })).timeZone).toBe("Asia/Tokyo");
    now = new Date("2026-11-27T14:59:59Z");
    await expect(r.checkIn(a.userId, undefined, from)).rejects.toMatchObject({ status: 409, message: REWARD_MESSAGES.checkedIn });
    // 00:01 on the 28th in Tokyo, still the 27th in UTC: a new day for this account
    now = new Date("2026-11-27T15:01:00Z");
    expect(await r.checkIn(a.userId, undefined, from)).toMatchObject({ local_date: "2026-11-28", points: 10, streak: 2 });
    // a browser in another zone later does not move the stored one
    expect((await r.checkInStatus(a.userId, "America/New_York")).time_zone).toBe("Asia/Tokyo");
  });

  it("the month's cap holds, and a new month starts again", async () => {
    await setRewards({ checkInCredits: 5, checkInMonthlyCap: 2, ...OPEN });
    const a = await account("UTC");
    const r = rewards();
    const from = elsewhere();
    for (const day of ["2026-11-28", "2026-11-29"]) {
      now = new Date(`${day}T10:00:00Z`);
      await r.checkIn(a.userId, undefined, from);
    }
    now = new Date("2026-11-30T10:00:00Z");
    await expect(r.checkIn(a.userId, undefined, from)).rejects.toMatchObject({ status: 409, message: REWARD_MESSAGES.monthlyCap });
    now = new Date("2026-12-01T10:00:00Z");
    expect(await r.checkIn(a.userId, undefined, from)).toMatchObject({ points: 15 });
  });
});
