import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { roomInWindow } from "../../../../tests/rate-windows.ts";

let t: TestApp;
/** Where the codes go: the outbox keeps them masked (docs/decisions/072), so tests read them as the recipient does. */
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  // no resend wait here; the cooldown has its own app below
  t = await createTestApp({ EMAIL_CODE_RESEND_SECONDS: "0", RATE_LIMIT_LOGIN_PER_MINUTE: "1000", RATE_LIMIT_IP_PER_HOUR: "1000", SMTP_URL: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const newEmail = () => `u${crypto.randomBytes(5).toString("hex")}@example.com`;

async function sendCode(app: TestApp, email: string) {
  await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
  return smtp.codeFor(email);
}

/** Any 6-digit code other than `code`. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("POST /api/login/visitor", () => {
  it("creates a guest with a token, user_info and is_register 0", async () => {
    const res = await t.http.post("/api/login/visitor?t=1700000000000").expect(200);
    expect(res.body.code).toBe(200);
    expect(res.body.msg).toBe("success");
    const { token, user_info, is_register } = res.body.data;
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(is_register).toBe(0);
    expect(user_info.type).toBe("visitor");
    expect(user_info.roles).toEqual(["visitor"]);
    const session = await t.db.session.findFirst({ where: { userId: user_info.id } });
    expect(session?.tokenHash).not.toBe(token); // only the hash is stored
  });

  it("records channel-id and utm headers on the user and the session", async () => {
    const headers = { "channel-id": "ch-7", "utm-campaign": "spring", "utm-adset": "set-2", "utm-ad": "ad-9" };
    const { userId } = await visitor(t, headers);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user).toMatchObject({ channelId: "ch-7", utmCampaign: "spring", utmAdset: "set-2", utmAd: "ad-9" });
    const session = await t.db.session.findFirstOrThrow({ where: { userId } });
    expect(session.channelId).toBe("ch-7");
  });

  it("treats a stale token on a public route as no token", async () => {
    const { token } = await visitor(t);
    await t.http.post("/api/login/logout").set("token", token).expect(200);
    const res = await t.http.post("/api/login/visitor").set("token", token).expect(200);
    expect(res.body.data.token).not.toBe(token);
  });
});

describe("POST /api/login/sendEmailCode validation", () => {
  it.each([
    [{}, "Please enter email"],
    [{ email: "" }, "Please enter email"],
    [{ email: "   " }, "Please enter email"],
    [{ email: "not-an-email" }, "Please enter a valid email"],
    [{ email: "a@b" }, "Please enter a valid email"],
    [{ email: 42 }, "Please enter email"],
  ])("%j -> %s", async (body, msg) => {
    const before = await t.db.outboxEmail.count();
    const res = await t.http.post("/api/login/sendEmailCode").send(body).expect(400);
    expect(res.body).toEqual({ code: 400, msg, data: null });
    expect(await t.db.outboxEmail.count()).toBe(before);
  });
});

describe("POST /api/login/emailLogin validation", () => {
  it.each([
    [{ code: "123456" }, "Please enter email"],
    [{ email: "bad", code: "123456" }, "Please enter a valid email"],
    [{ email: "a@example.com" }, "Please enter verification code"],
    [{ email: "a@example.com", code: "" }, "Please enter verification code"],
    [{ email: "a@example.com", code: "123" }, "Please enter 4-6 digit verification code"],
    [{ email: "a@example.com", code: "1234567" }, "Please enter 4-6 digit verification code"],
    [{ email: "a@example.com", code: "12ab" }, "Please enter 4-6 digit verification code"],
  ])("%j -> %s", async (body, msg) => {
    const res = await t.http.post("/api/login/emailLogin").send(body).expect(400);
    expect(res.body).toEqual({ code: 400, msg, data: null });
  });

  it("refuses a code when none was sent", async () => {
    const res = await t.http.post("/api/login/emailLogin").send({ email: newEmail(), code: "123456" }).expect(400);
    expect(res.body.msg).toBe("Please enter the correct verification code");
  });
});

describe("email-code login", () => {
  it("sends a hashed 6-digit code and logs in a new account", async () => {
    const email = newEmail();
    const sent = await t.http.post("/api/login/sendEmailCode").send({ email: email.toUpperCase() }).expect(200);
    expect(sent.body.data).toEqual({ expires_in: 600, resend_in: 0 });
    const code = smtp.codeFor(email);
    const row = await t.db.emailCode.findFirstOrThrow({ where: { email } });
    expect(row.codeHash).not.toContain(code);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeCloseTo(600_000, -3);

    const res = await t.http.post("/api/login/emailLogin").send({ email, code }).expect(200);
    expect(res.body.data.is_register).toBe(1);
    expect(res.body.data.user_info).toMatchObject({ email, type: "registered", roles: ["user"] });
    const me = await t.http.get("/api/Personal/personal_info").set("token", res.body.data.token).expect(200);
    expect(me.body.data.info.email).toBe(email);

    // a code works once
    const again = await t.http.post("/api/login/emailLogin").send({ email, code }).expect(400);
    expect(again.body.msg).toBe("Please enter the correct verification code");
  });

  it("logs in to the same account next time (is_register 0)", async () => {
    const email = newEmail();
    const first = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    const second = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    expect(second.body.data.is_register).toBe(0);
    expect(second.body.data.user_info.id).toBe(first.body.data.user_info.id);
  });

  it("locks a code after five wrong attempts, even against the right code", async () => {
    const email = newEmail();
    const code = await sendCode(t, email);
    for (let i = 0; i < 5; i++) {
      const res = await t.http
        .post("/api/login/emailLogin")
        .send({ email, code: wrong(code) })
        .expect(400);
      expect(res.body.msg).toBe("Please enter the correct verification code");
    }
    const res = await t.http.post("/api/login/emailLogin").send({ email, code }).expect(400);
    expect(res.body.msg).toBe("Please enter the correct verification code");
    expect((await t.db.emailCode.findFirstOrThrow({ where: { email } })).attempts).toBe(5);
  });

  it("accepts the right code after four wrong ones", async () => {
    const email = newEmail();
    const code = await sendCode(t, email);
    for (let i = 0; i < 4; i++)
      await t.http
        .post("/api/login/emailLogin")
        .send({ email, code: wrong(code) })
        .expect(400);
    await t.http.post("/api/login/emailLogin").send({ email, code }).expect(200);
  });

  it("counts concurrent wrong guesses exactly", async () => {
    const email = newEmail();
    const code = await sendCode(t, email);
    await Promise.all(
      Array.from({ length: 8 }, () =>
        t.http
          .post("/api/login/emailLogin")
          .send({ email, code: wrong(code) })
          .expect(400),
      ),
    );
    expect((await t.db.emailCode.findFirstOrThrow({ where: { email } })).attempts).toBe(5);
    await t.http.post("/api/login/emailLogin").send({ email, code }).expect(400);
  });

  it("refuses an expired code", async () => {
    const email = newEmail();
    const code = await sendCode(t, email);
    await t.db.emailCode.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await t.http.post("/api/login/emailLogin").send({ email, code }).expect(400);
    expect(res.body.msg).toBe("Please enter the correct verification code");
  });

  it("replaces an earlier code with a new one", async () => {
    const email = newEmail();
    const first = await sendCode(t, email);
    let second = await sendCode(t, email);
    while (second === first) second = await sendCode(t, email);
    await t.http.post("/api/login/emailLogin").send({ email, code: first }).expect(400);
    await t.http.post("/api/login/emailLogin").send({ email, code: second }).expect(200);
  });

  it("gives a banned account 'Sorry, you do not have login permission'", async () => {
    const email = newEmail();
    const first = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    await t.db.user.update({ where: { id: first.body.data.user_info.id }, data: { bannedAt: new Date() } });
    const res = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: await sendCode(t, email) })
      .expect(403);
    expect(res.body).toEqual({
      code: 403,
      msg: "Sorry, you do not have login permission",
      data: { reason: "banned", ban_reason: null, banned_at: null, decision: null },
    });
    // and the token it already had no longer works anywhere
    const me = await t.http.get("/api/Personal/personal_info").set("token", first.body.data.token).expect(403);
    expect(me.body.msg).toBe("Sorry, you do not have login permission");
  });
});

describe("a guest's belongings survive login", () => {
  async function guestWithBelongings() {
    const guest = await visitor(t, { "utm-campaign": "guest-campaign" });
    await t.services.credits.grant({ userId: guest.userId, amount: 7, reason: "bonus", idempotencyKey: `test-bonus:${guest.userId}` });
    await t.db.upload.create({
      data: { userId: guest.userId, kind: "image", storageKey: `k/${guest.userId}.png`, mime: "image/png", sizeBytes: 10, sha256: "x" },
    });
    await t.db.generationTask.create({ data: { userId: guest.userId, mode: "image_to_video", engine: "local", cost: 1, input: {} } });
    return guest;
  }

  it("upgrades the guest when the email is new (same account, is_register 1)", async () => {
    const guest = await guestWithBelongings();
    const email = newEmail();
    const res = await t.http
      .post("/api/login/emailLogin")
      .set("token", guest.token)
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    expect(res.body.data.is_register).toBe(1);
    expect(res.body.data.user_info.id).toBe(guest.userId);
    expect(res.body.data.user_info).toMatchObject({ type: "registered", email, points: 7 });
    const user = await t.db.user.findUniqueOrThrow({ where: { id: guest.userId } });
    expect(user.utmCampaign).toBe("guest-campaign");
    expect(await t.db.upload.count({ where: { userId: guest.userId } })).toBe(1);
    expect(await t.db.generationTask.count({ where: { userId: guest.userId } })).toBe(1);
  });

  it("merges the guest into an existing account (credits, uploads, tasks)", async () => {
    const email = newEmail();
    const owner = await t.http
      .post("/api/login/emailLogin")
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    const ownerId: number = owner.body.data.user_info.id;
    await t.services.credits.grant({ userId: ownerId, amount: 3, reason: "bonus", idempotencyKey: `test-bonus:${ownerId}` });

    const guest = await guestWithBelongings();
    const res = await t.http
      .post("/api/login/emailLogin")
      .set("token", guest.token)
      .send({ email, code: await sendCode(t, email) })
      .expect(200);
    expect(res.body.data.is_register).toBe(0);
    expect(res.body.data.user_info.id).toBe(ownerId);

    const balance = await t.http.get("/api/Personal/select_users_integral").set("token", res.body.data.token).expect(200);
    expect(balance.body.data.points).toBe(10);
    expect(await t.db.upload.count({ where: { userId: ownerId } })).toBe(1);
    expect(await t.db.generationTask.count({ where: { userId: ownerId } })).toBe(1);
    const guestRow = await t.db.user.findUniqueOrThrow({ where: { id: guest.userId } });
    expect(guestRow).toMatchObject({ points: 0, mergedIntoId: ownerId });
    const ledger = await t.db.ledgerEntry.findMany({ where: { reason: { in: ["merge_out", "merge_in"] }, userId: { in: [guest.userId, ownerId] } } });
    expect(ledger.map((e) => e.delta).sort()).toEqual([-7, 7]);
    // the owner had no campaign; the guest's first touch fills it
    expect((await t.db.user.findUniqueOrThrow({ where: { id: ownerId } })).utmCampaign).toBe("guest-campaign");
    // the guest token is spent
    await t.http.get("/api/Personal/personal_info").set("token", guest.token).expect(401);
  });
});

describe("resend cooldown and limits", () => {
  it("refuses a second code within 60 seconds with a silent 429 and the wait", async () => {
    const app = await createTestApp();
    try {
      const email = newEmail();
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
      const res = await app.http.post("/api/login/sendEmailCode").send({ email }).expect(429);
      expect(res.body.msg).toBe("Too many requests");
      expect(res.body.data.resend_in).toBeGreaterThan(55);
      expect(res.body.data.resend_in).toBeLessThanOrEqual(60);
      expect(await app.db.outboxEmail.count({ where: { to: email } })).toBe(1);
      // once the window has passed a new code goes out
      await app.db.emailCode.updateMany({ where: { email }, data: { createdAt: new Date(Date.now() - 61_000) } });
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
    } finally {
      await app.close();
    }
  });

  it("sends one code when many requests for the same email arrive at once", async () => {
    const app = await createTestApp({ RATE_LIMIT_EMAIL_PER_HOUR: "100", RATE_LIMIT_IP_PER_HOUR: "100" });
    try {
      const email = newEmail();
      const answers = await Promise.all(Array.from({ length: 10 }, () => app.http.post("/api/login/sendEmailCode").send({ email })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429, 429, 429, 429, 429, 429, 429]);
      expect(await app.db.emailCode.count({ where: { email } })).toBe(1);
      expect(await app.db.outboxEmail.count({ where: { to: email } })).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("limits codes per email and per IP, and logins per IP", async () => {
    const app = await createTestApp({
      EMAIL_CODE_RESEND_SECONDS: "0",
      RATE_LIMIT_EMAIL_PER_HOUR: "2",
      RATE_LIMIT_IP_PER_HOUR: "4",
      RATE_LIMIT_LOGIN_PER_MINUTE: "3",
      RATE_LIMIT_VISITOR_PER_HOUR: "2",
    });
    try {
      const email = newEmail();
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
      await app.http.post("/api/login/sendEmailCode").send({ email }).expect(200);
      const perEmail = await app.http.post("/api/login/sendEmailCode").send({ email }).expect(429);
      expect(perEmail.body).toEqual({ code: 429, msg: "Too many requests", data: null });

      // the refused third request still counted against the IP: this is the 4th, the next one is over
      await app.http.post("/api/login/sendEmailCode").send({ email: newEmail() }).expect(200);
      await app.http.post("/api/login/sendEmailCode").send({ email: newEmail() }).expect(429);

      // four logins inside one minute's window
      await roomInWindow(60);
      for (let i = 0; i < 3; i++) await app.http.post("/api/login/emailLogin").send({ email, code: "000000" }).expect(400);
      const login = await app.http.post("/api/login/emailLogin").send({ email, code: "000000" }).expect(429);
      expect(login.body.msg).toBe("Too many requests");

      await app.http.post("/api/login/visitor").expect(200);
      await app.http.post("/api/login/visitor").expect(200);
      await app.http.post("/api/login/visitor").expect(429);
    } finally {
      await app.close();
    }
  });
});

describe("logout", () => {
  it("revokes the token: every user route answers 401 afterwards", async () => {
    const { token } = await visitor(t);
    await t.http.get("/api/Personal/personal_info").set("token", token).expect(200);
    await t.http.post("/api/login/logout").set("token", token).expect(200);
    const res = await t.http.get("/api/Personal/personal_info").set("token", token).expect(401);
    expect(res.body).toEqual({ code: 401, msg: "You have been logged out. Please log in again", data: null });
  });

  it("answers 200 without a token", async () => {
    await t.http.post("/api/login/logout").expect(200);
  });

  it("notes when a session was last used, at most every five minutes", async () => {
    const { token, userId } = await visitor(t);
    const old = new Date(Date.now() - 10 * 60_000);
    await t.db.session.updateMany({ where: { userId }, data: { lastSeenAt: old } });
    await t.http.get("/api/Personal/personal_info").set("token", token).expect(200);
    const seen = (await t.db.session.findFirstOrThrow({ where: { userId } })).lastSeenAt;
    expect(seen.getTime()).toBeGreaterThan(Date.now() - 60_000);
    await t.http.get("/api/Personal/personal_info").set("token", token).expect(200);
    expect((await t.db.session.findFirstOrThrow({ where: { userId } })).lastSeenAt).toEqual(seen);
  });

  it("refuses an expired token", async () => {
    const { token, userId } = await visitor(t);
    await t.db.session.updateMany({ where: { userId }, data: { expiresAt: new Date(Date.now() - 1) } });
    await t.http.get("/api/Personal/personal_info").set("token", token).expect(401);
  });
});

describe("GET /api/login/getLoginUrl", () => {
  it("says Google is not configured when it is not", async () => {
    const res = await t.http.get("/api/login/getLoginUrl").expect(503);
    expect(res.body.msg).toBe("Google login is not configured");
  });

  it("returns Google's consent URL with the client id, redirect and state", async () => {
    const app = await createTestApp({ GOOGLE_CLIENT_ID: "cid.apps.googleusercontent.com" });
    try {
      const res = await app.http.get("/api/login/getLoginUrl?t=1").expect(200);
      const url = new URL(res.body.data.url);
      expect(url.origin).toBe("https://accounts.google.com");
      expect(url.searchParams.get("client_id")).toBe("cid.apps.googleusercontent.com");
      expect(url.searchParams.get("redirect_uri")).toBe("http://localhost:8080/googleCallback");
      expect(url.searchParams.get("scope")).toBe("openid email profile");
      expect(url.searchParams.get("state")).toBe(res.body.data.state);
    } finally {
      await app.close();
    }
  });
});
