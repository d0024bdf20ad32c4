import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { newStaff } from "../../../../tests/staff-utils.ts";

let t: Awaited<ReturnType<typeof createTestApp>>;
let smtp: FakeSmtp;
let staffId: number;

beforeAll(async () => {
  // login codes are never kept readable in the outbox (decision 072): the code is read as its recipient would
  smtp = await startFakeSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  staffId = (await newStaff(t, ["moderator"])).staffId;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const REASON = "Uploaded a photo of someone without their consent";

/** Issue 11 item 14: a banned person learns why, instead of being logged out without a word. */
describe("a banned account is told the reason staff gave", () => {
  it("its old token answers 403 with the ban's reason and time, on every call that needs the login", async () => {
    const { token, userId } = await visitor(t);
    await t.http.get("/api/Personal/personal_info").set("token", token).expect(200);
    const ban = await t.services.moderation.ban(staffId, userId, REASON);
    const res = await t.http.get("/api/Personal/personal_info").set("token", token).expect(403);
    expect(res.body).toMatchObject({
      code: 403,
      msg: "Sorry, you do not have login permission",
      data: { reason: "banned", ban_reason: REASON, banned_at: ban.createdAt.toISOString(), decision: { ground: "other", automated: false } },
    });
    // the session stays revoked: nothing else works with it
    await t.http.post("/api/Generation/getDurationPoints").set("token", token).send({}).expect(403);
    expect((await t.db.session.findFirstOrThrow({ where: { userId } })).revokedAt).not.toBeNull();
  });

  it("after an unban the old token is simply logged out (401), and a new login works", async () => {
    const { token, userId } = await visitor(t);
    await t.services.moderation.ban(staffId, userId, REASON);
    await t.services.moderation.unban(staffId, userId, "appeal upheld");
    expect((await t.http.get("/api/Personal/personal_info").set("token", token).expect(401)).body.data).toBeNull();
  });

  it("logging in to a banned account by email answers the same notice", async () => {
    const email = `banned-${Date.now()}@example.com`;
    const user = await t.db.user.create({ data: { email, loginType: "registered", role: "user" } });
    await t.services.moderation.ban(staffId, user.id, REASON);
    await t.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    const code = smtp.codeFor(email);
    const res = await t.http.post("/api/login/emailLogin").send({ email, code }).expect(403);
    expect(res.body.data).toMatchObject({ reason: "banned", ban_reason: REASON });
  });
});
