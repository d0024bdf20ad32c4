import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeGoogle, type FakeGoogle } from "../../../../tests/fixtures/google.ts";
import { roomInWindow } from "../../../../tests/rate-windows.ts";

let google: FakeGoogle;
let t: TestApp;
beforeAll(async () => {
  google = await startFakeGoogle();
  t = await createTestApp({
    GOOGLE_CLIENT_ID: google.clientId,
    GOOGLE_CLIENT_SECRET: google.clientSecret,
    GOOGLE_CERTS_URL: google.certsUrl,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    RATE_LIMIT_LOGIN_PER_MINUTE: "1000",
  });
});
afterAll(async () => {
  await t.close();
  await google.close();
});

const refused = { code: 400, msg: "Sorry, you do not have login permission", data: null };
const login = (body: object, token?: string) => {
  const req = t.http.post("/api/login/googleLogin");
  if (token) req.set("token", token);
  return req.send(body);
};

describe("POST /api/login/googleLogin", () => {
  it("signs in with a valid ID token verified against the published certificates", async () => {
    const idToken = google.idToken({ email: "Gina@Gmail.com", name: "Gina" });
    const res = await login({ id_token: idToken }).expect(200);
    expect(res.body.data.is_register).toBe(1);
    expect(res.body.data.user_info).toMatchObject({ email: "gina@gmail.com", nickname: "Gina", type: "registered" });
    expect(google.requests).toContain("GET /oauth2/v1/certs");

    const again = await login({
      id_token: google.idToken({ sub: JSON.parse(Buffer.from(idToken.split(".")[1], "base64url").toString()).sub, email: "gina@gmail.com" }),
    }).expect(200);
    expect(again.body.data.is_register).toBe(0);
    expect(again.body.data.user_info.id).toBe(res.body.data.user_info.id);
  });

  it("upgrades the current guest", async () => {
    const guest = await visitor(t);
    const res = await login({ id_token: google.idToken() }, guest.token).expect(200);
    expect(res.body.data.user_info.id).toBe(guest.userId);
    expect(res.body.data.is_register).toBe(1);
  });

  it("refuses an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    // beyond the library's five minutes of allowed clock skew
    expect((await login({ id_token: google.idToken({ iat: now - 7200, exp: now - 3600 }) }).expect(400)).body).toEqual(refused);
  });

  it("refuses a token for another client (audience)", async () => {
    expect((await login({ id_token: google.idToken({ aud: "someone-else.apps.googleusercontent.com" }) }).expect(400)).body).toEqual(refused);
  });

  it("refuses a token from another issuer", async () => {
    expect((await login({ id_token: google.idToken({ iss: "https://evil.example.com" }) }).expect(400)).body).toEqual(refused);
  });

  it("refuses a tampered token", async () => {
    const [header, , signature] = google.idToken().split(".");
    const forged = Buffer.from(
      JSON.stringify({
        iss: "https://accounts.google.com",
        aud: google.clientId,
        sub: "1",
        email: "admin@gmail.com",
        email_verified: true,
        iat: 1,
        exp: 9_999_999_999,
      }),
    ).toString("base64url");
    expect((await login({ id_token: `${header}.${forged}.${signature}` }).expect(400)).body).toEqual(refused);
  });

  it("refuses a token signed by a key Google did not publish", async () => {
    expect((await login({ id_token: google.idTokenSignedByStranger() }).expect(400)).body).toEqual(refused);
  });

  it("refuses an unverified email address", async () => {
    expect((await login({ id_token: google.idToken({ email_verified: false }) }).expect(400)).body).toEqual(refused);
  });

  it("refuses garbage and an empty body without a 500", async () => {
    expect((await login({ id_token: "not.a.jwt" }).expect(400)).body).toEqual(refused);
    expect((await login({}).expect(400)).body.msg).toBe("Google sign-in did not return a credential");
  });

  it("gives a banned Google account 'Sorry, you do not have login permission'", async () => {
    const first = await login({ id_token: google.idToken({ sub: "777", email: "banned@gmail.com" }) }).expect(200);
    await t.db.user.update({ where: { id: first.body.data.user_info.id }, data: { bannedAt: new Date() } });
    const res = await login({ id_token: google.idToken({ sub: "777", email: "banned@gmail.com" }) }).expect(403);
    expect(res.body.msg).toBe("Sorry, you do not have login permission");
  });

  it("creates one account when the same new identity logs in twice at once", async () => {
    const idToken = google.idToken({ sub: "4242", email: "twice@gmail.com" });
    const [a, b] = await Promise.all([login({ id_token: idToken }).expect(200), login({ id_token: idToken }).expect(200)]);
    expect(a.body.data.user_info.id).toBe(b.body.data.user_info.id);
    expect(await t.db.user.count({ where: { email: "twice@gmail.com" } })).toBe(1);
  });
});

describe("POST /api/login/googleLogin with the authorization code from /googleCallback", () => {
  it("exchanges the code at Google's token endpoint, verifies the ID token and signs in", async () => {
    const code = google.authorizationCode({ email: "coded@gmail.com", name: "Cody" });
    const res = await login({ code }).expect(200);
    expect(res.body.data.user_info).toMatchObject({ email: "coded@gmail.com", nickname: "Cody" });
    expect(google.requests).toContain("POST /token");
    // a code works once
    expect((await login({ code }).expect(400)).body).toEqual(refused);
  });

  it("refuses a code Google did not issue", async () => {
    expect((await login({ code: "4/0Aforged" }).expect(400)).body).toEqual(refused);
  });

  it("refuses a code issued for another redirect address", async () => {
    const code = google.authorizationCode({}, "https://evil.example.com/googleCallback");
    expect((await login({ code }).expect(400)).body).toEqual(refused);
  });
});

describe("Google not configured", () => {
  it("answers 503 with a clear message", async () => {
    const app = await createTestApp();
    try {
      const res = await app.http.post("/api/login/googleLogin").send({ id_token: google.idToken() }).expect(503);
      expect(res.body.msg).toBe("Google login is not configured");
    } finally {
      await app.close();
    }
  });
});

describe("Google login rate limit", () => {
  it("answers 429 'Too many requests' past the per-IP logins per minute, signing nobody in", async () => {
    const app = await createTestApp({ GOOGLE_CLIENT_ID: google.clientId, GOOGLE_CERTS_URL: google.certsUrl, RATE_LIMIT_LOGIN_PER_MINUTE: "2" });
    try {
      // three logins inside one minute's window
      await roomInWindow(60);
      for (let i = 0; i < 2; i++) await app.http.post("/api/login/googleLogin").send({ id_token: google.idToken() }).expect(200);
      const over = await app.http
        .post("/api/login/googleLogin")
        .send({ id_token: google.idToken({ email: "late@gmail.com" }) })
        .expect(429);
      expect(over.body).toEqual({ code: 429, msg: "Too many requests", data: null });
      expect(await app.db.user.count({ where: { email: "late@gmail.com" } })).toBe(0);
    } finally {
      await app.close();
    }
  });
});
