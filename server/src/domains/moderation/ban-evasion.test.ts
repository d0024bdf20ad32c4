import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { MSG } from "../../http/messages.ts";

/** Issue 19 item 6: a ban covers the device (first-party cookie and fingerprint), email, Google subject and player id. */
let t: TestApp;
let smtp: FakeSmtp;
let moderator: StaffLogin;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, RATE_LIMIT_VISITOR_PER_HOUR: "1000" });
  moderator = await staffMember(t, ["moderator"]);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const REASON = "Shared someone's intimate pictures";
let n = 0;
const fingerprint = () => (++n).toString(16).padStart(32, "a");
const deviceCookie = (res: { headers: Record<string, unknown> }) => {
  const set = (res.headers["set-cookie"] as string[] | undefined)?.find((c) => c.startsWith("reverie_device="));
  return set?.split(";")[0];
};
const guest = (headers: Record<string, string>) => t.http.post("/api/login/visitor").set(headers);

describe("a banned device", () => {
  it("a guest sign-in sets the first-party device cookie; a later one with it keeps it", async () => {
    const first = await guest({}).expect(200);
    const cookie = deviceCookie(first);
    expect(cookie).toMatch(/^reverie_device=[\w-]{16,}$/);
    expect(first.headers["set-cookie"]?.[0]).toMatch(/HttpOnly/i);
    const again = await guest({ Cookie: cookie! }).expect(200);
    expect(deviceCookie(again)).toBeUndefined();
  });

  it("cannot start new guest accounts by its device cookie, and is told nothing of the banned account's notice", async () => {
    const fp = fingerprint();
    const first = await guest({ "device-fingerprint": fp }).expect(200);
    const cookie = deviceCookie(first)!;
    await t.http
      .post(`/admin/api/users/${first.body.data.user_info.id}/ban`)
      .set("token", moderator.token)
      .send({ reason: REASON, ground: "non_consensual" })
      .expect(200);
    const users = await t.db.user.count();

    const attempts: Record<string, string>[] = [{ Cookie: cookie }, { Cookie: cookie, "device-fingerprint": fingerprint() }];
    for (const headers of attempts) {
      const refused = await guest(headers).expect(403);
      expect(refused.body).toMatchObject({
        msg: "Sorry, you do not have login permission",
        data: { reason: "banned", ban_reason: null, banned_at: null, decision: null },
      });
      expect(JSON.stringify(refused.body)).not.toContain(REASON);
    }
    expect(await t.db.user.count()).toBe(users);
  });

  it("lets in two fresh phones that share IP, user agent and screen (one fingerprint) with a banned one, and flags them", async () => {
    // the same phone model, browser and settings behind one carrier address: one fingerprint, no device cookie yet
    const phone = { "device-fingerprint": fingerprint(), "user-agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile", "x-forwarded-for": "203.0.113.9" };
    const banned = await guest(phone).expect(200);
    const bannedId = banned.body.data.user_info.id as number;
    await t.services.moderation.ban(moderator.staffId, bannedId, REASON);
    const strangers = [await guest(phone).expect(200), await guest(phone).expect(200)];
    for (const s of strangers) {
      expect(JSON.stringify(s.body)).not.toContain(REASON);
      // their own logins work: nobody is shown the other account's notice later either
      await t.http.get("/api/Personal/personal_info").set("token", s.body.data.token).expect(200);
    }
    const flagged = await t.db.banEvasionFlag.findMany({ where: { ban: { userId: bannedId } }, orderBy: { userId: "asc" } });
    expect(flagged.map((f) => [f.userId, f.signal])).toEqual(strangers.map((s) => [s.body.data.user_info.id, "fingerprint"]));
  });

  it("flags a stranger on the banned fingerprint whose account is older than the ban, and an account signing in with it later", async () => {
    // issue 47 item 9: the stranger's guest account was made before the ban, so the flag at account creation missed it
    const print = fingerprint();
    const stranger = await guest({ "device-fingerprint": print, "x-forwarded-for": "198.51.100.20" }).expect(200);
    const strangerId = stranger.body.data.user_info.id as number;
    const banned = await guest({ "device-fingerprint": print, "x-forwarded-for": "203.0.113.30" }).expect(200);
    const bannedId = banned.body.data.user_info.id as number;
    await t.services.moderation.ban(moderator.staffId, bannedId, REASON);
    const flagsOf = async () =>
      (await t.db.banEvasionFlag.findMany({ where: { ban: { userId: bannedId } }, orderBy: { userId: "asc" } })).map((f) => [f.userId, f.signal]);
    expect(await flagsOf()).toEqual([[strangerId, "fingerprint"]]);
    // flag only: the stranger's login still works
    await t.http.get("/api/Personal/personal_info").set("token", stranger.body.data.token).expect(200);

    // a registered account made elsewhere signs in again from a phone with the banned fingerprint
    const email = `older-${Date.now()}@example.com`;
    const olderId = (await t.db.user.create({ data: { email, loginType: "registered", role: "user" } })).id;
    await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    await t.http
      .post("/api/login/emailLogin")
      .set("device-fingerprint", print)
      .send({ email, code: smtp.codeFor(email) })
      .expect(200);
    expect(await flagsOf()).toEqual([strangerId, olderId].sort((a, b) => a - b).map((id) => [id, "fingerprint"]));
  });

  it("cannot register a new account by email either; the ban lifted, the device is free again", async () => {
    const first = await guest({}).expect(200);
    const cookie = deviceCookie(first)!;
    const bannedId = first.body.data.user_info.id as number;
    await t.services.moderation.ban(moderator.staffId, bannedId, REASON);

    const email = `new-${Date.now()}@example.com`;
    await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    const refused = await t.http
      .post("/api/login/emailLogin")
      .set("Cookie", cookie)
      .send({ email, code: smtp.codeFor(email) })
      .expect(403);
    expect(refused.body.data).toMatchObject({ reason: "banned", ban_reason: null, decision: null });
    expect(await t.db.user.count({ where: { email } })).toBe(0);

    await t.services.moderation.unban(moderator.staffId, bannedId, "Appeal accepted");
    await guest({ Cookie: cookie }).expect(200);
  });

  it("a ban records the account's email, Google subject and player id, which a new account may not reuse", async () => {
    const user = await t.db.user.create({
      data: { email: `marked-${Date.now()}@example.com`, googleSub: `sub-${Date.now()}`, playerUid: `p-${Date.now()}`, loginType: "registered", role: "user" },
    });
    await t.services.moderation.ban(moderator.staffId, user.id, REASON);
    const marks = await t.db.banMark.findMany({ where: { ban: { userId: user.id } }, orderBy: { kind: "asc" } });
    expect(marks.map((m) => [m.kind, m.value])).toEqual(
      expect.arrayContaining([
        ["email", user.email],
        ["google_sub", user.googleSub],
        ["player_uid", user.playerUid],
      ]),
    );
    expect(await t.services.moderation.bannedOwner(t.db, { email: user.email!.toUpperCase() })).toBe(user.id);
    expect(await t.services.moderation.bannedOwner(t.db, { googleSub: user.googleSub })).toBe(user.id);
    expect(await t.services.moderation.bannedOwner(t.db, { playerUid: "someone-else" })).toBeNull();

    // the banned account erased (its columns emptied, decision 262): a new account signing up with the email, on a
    // fresh device, is refused by the marks alone, and no account is made
    await t.db.user.update({ where: { id: user.id }, data: { email: null, googleSub: null, playerUid: null } });
    const email = user.email!.toUpperCase();
    await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    const refused = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: smtp.codeFor(user.email!) })
      .expect(403);
    expect(refused.body.msg).toBe(MSG.noLoginPermission);
    expect(await t.db.user.count({ where: { email: user.email } })).toBe(0);
  });
});
