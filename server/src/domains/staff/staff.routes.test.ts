import { z } from "zod";
import { createMongoAbility, type RawRuleOf } from "@casl/ability";
import { unpackRules } from "@casl/ability/extra";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { freshTotpCode, newStaff, staffMember } from "../../../../tests/staff-utils.ts";
import type { AppAbility } from "../../authz/abilities.ts";
import { totpCode } from "../auth/totp.ts";
import { roomInWindow } from "../../../../tests/rate-windows.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: "1000" });
  // An admin-only operation, declared like every route, to prove the real chain refuses other roles.
  t.api.get("/admin/api/test-admin-only", { summary: "test", auth: "staff", can: ["manage", "Staff"], response: z.object({ ok: z.boolean() }) }, () => ({
    ok: true,
  }));
});
afterAll(() => t.close());

describe("POST /admin/api/login", () => {
  it("logs in with username, password and the current one-time code", async () => {
    const s = await newStaff(t, ["support"]);
    const res = await t.http
      .post("/admin/api/login")
      .send({ username: s.username, password: s.password, code: totpCode(s.totpSecret) })
      .expect(200);
    expect(res.body.data).toMatchObject({ staffId: s.staffId });
    expect(typeof res.body.data.token).toBe("string");
    const stored = await t.db.staff.findUniqueOrThrow({ where: { id: s.staffId } });
    expect(stored.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
  });

  it("refuses a wrong password and a wrong one-time code alike", async () => {
    const s = await newStaff(t);
    const code = totpCode(s.totpSecret);
    const badCode = String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");
    for (const body of [
      { username: s.username, password: `${s.password}x`, code },
      { username: s.username, password: s.password, code: badCode },
      { username: "nobody", password: s.password, code },
    ]) {
      const res = await t.http.post("/admin/api/login").send(body).expect(400);
      expect(res.body).toEqual({ code: 400, msg: "Sorry, you do not have login permission", data: null });
    }
  });

  it("accepts the previous 30-second step for clock drift, not older ones", async () => {
    const drifted = await newStaff(t);
    // the previous step's code turns two steps old if the current step ends mid-request: stay clear of its end
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 2_000) await new Promise((r) => setTimeout(r, left + 50));
    await t.http
      .post("/admin/api/login")
      .send({ username: drifted.username, password: drifted.password, code: totpCode(drifted.totpSecret, Date.now() - 30_000) })
      .expect(200);
    const stale = await newStaff(t);
    await t.http
      .post("/admin/api/login")
      .send({ username: stale.username, password: stale.password, code: totpCode(stale.totpSecret, Date.now() - 120_000) })
      .expect(400);
  });

  it("accepts a one-time code once, and no earlier code after it", async () => {
    const s = await newStaff(t);
    const login = (code: string) => t.http.post("/admin/api/login").send({ username: s.username, password: s.password, code });
    const next = totpCode(s.totpSecret, Date.now() + 30_000);
    expect((await login(next)).status).toBe(200);
    const replay = await login(next);
    expect(replay.body).toEqual({ code: 400, msg: "Sorry, you do not have login permission", data: null });
    // the current step is older than the one just used
    expect((await login(totpCode(s.totpSecret))).status).toBe(400);
  });

  it("opens one session when the same code is sent many times at once", async () => {
    const s = await newStaff(t);
    const code = await freshTotpCode(s);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.http.post("/admin/api/login").send({ username: s.username, password: s.password, code })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    expect(await t.db.session.count({ where: { staffId: s.staffId } })).toBe(1);
  });

  it("does not use up a code on a wrong password", async () => {
    const s = await newStaff(t);
    const code = await freshTotpCode(s);
    await t.http
      .post("/admin/api/login")
      .send({ username: s.username, password: `${s.password}x`, code })
      .expect(400);
    await t.http.post("/admin/api/login").send({ username: s.username, password: s.password, code }).expect(200);
  });

  it("refuses a deactivated account", async () => {
    const s = await staffMember(t);
    await t.db.staff.update({ where: { id: s.staffId }, data: { active: false } });
    await t.http
      .post("/admin/api/login")
      .send({ username: s.username, password: s.password, code: totpCode(s.totpSecret) })
      .expect(400);
    await t.http.get("/admin/api/me").set("token", s.token).expect(401);
  });

  it.each([
    [{ password: "x", code: "123456" }, "Please enter username"],
    [{ username: "a", code: "123456" }, "Please enter password"],
    [{ username: "a", password: "x" }, "Please enter verification code"],
    [{ username: "a", password: "x", code: "12" }, "Please enter verification code"],
  ])("%j -> %s", async (body, msg) => {
    expect((await t.http.post("/admin/api/login").send(body).expect(400)).body.msg).toBe(msg);
  });

  it("limits attempts per username", async () => {
    const app = await createTestApp({ RATE_LIMIT_LOGIN_PER_MINUTE: "1000" });
    try {
      // eleven attempts inside one 15-minute window
      await roomInWindow(900);
      for (let i = 0; i < 10; i++) await app.http.post("/admin/api/login").send({ username: "admin", password: "wrong", code: "000000" }).expect(400);
      const res = await app.http.post("/admin/api/login").send({ username: "admin", password: "wrong", code: "000000" }).expect(429);
      expect(res.body.msg).toBe("Too many requests");
    } finally {
      await app.close();
    }
  });
});

describe("GET /admin/api/me", () => {
  it("returns username, roles, authBtnList and packed CASL rules", async () => {
    const s = await staffMember(t, ["support", "moderator"]);
    const res = await t.http.get("/admin/api/me?t=5").set("token", s.token).expect(200);
    const me = res.body.data;
    expect(me).toMatchObject({ id: s.staffId, username: s.username, roles: ["support", "moderator"] });
    expect(me.authBtnList).toEqual(expect.arrayContaining(["grant:Payment", "ban:User", "read:Dashboard"]));
    expect(me.authBtnList).not.toContain("manage:all");
    // the console rebuilds the same ability from the packed rules
    const ability = createMongoAbility<AppAbility>(unpackRules<RawRuleOf<AppAbility>>(me.rules));
    expect(ability.can("ban", "User")).toBe(true);
    expect(ability.can("manage", "Staff")).toBe(false);
  });

  it("gives an admin manage:all", async () => {
    const s = await staffMember(t, ["admin"]);
    const res = await t.http.get("/admin/api/me").set("token", s.token).expect(200);
    expect(res.body.data.authBtnList).toContain("manage:all");
  });

  it("is 401 without a token, with a revoked token and with a user token", async () => {
    await t.http.get("/admin/api/me").expect(401);
    const s = await staffMember(t, ["marketer"]);
    await t.http.post("/admin/api/logout").set("token", s.token).expect(200);
    const revoked = await t.http.get("/admin/api/me").set("token", s.token).expect(401);
    expect(revoked.body.msg).toBe("You have been logged out. Please log in again");
    const { token } = await visitor(t);
    await t.http.get("/admin/api/me").set("token", token).expect(401);
  });
});

describe("CASL permission middleware", () => {
  it("lets an admin through an admin-only route", async () => {
    const s = await staffMember(t, ["admin"]);
    expect((await t.http.get("/admin/api/test-admin-only").set("token", s.token).expect(200)).body.data).toEqual({ ok: true });
  });

  it.each([["support"], ["marketer"], ["moderator"]] as const)("refuses %s with 403", async (role) => {
    const s = await staffMember(t, [role]);
    const res = await t.http.get("/admin/api/test-admin-only").set("token", s.token).expect(403);
    expect(res.body).toEqual({ code: 403, msg: "There is no permission for the current operation", data: null });
  });

  it("refuses a staff token on user routes and a user token on staff routes", async () => {
    const s = await staffMember(t, ["admin"]);
    await t.http.get("/api/Personal/personal_info").set("token", s.token).expect(401);
    const { token } = await visitor(t);
    await t.http.get("/admin/api/test-admin-only").set("token", token).expect(401);
  });
});
