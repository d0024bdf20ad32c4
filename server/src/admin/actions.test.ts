import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "../db/generated/enums.ts";
import { totpCode } from "../domains/auth/totp.ts";
import { createTestApp, visitor, type TestApp } from "../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../tests/staff-utils.ts";

let t: TestApp;
const as: Partial<Record<StaffRole, StaffLogin>> = {};
const token = (role: StaffRole) => as[role]!.token;

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ["admin", "support", "marketer", "moderator"] as const) as[role] = await staffMember(t, [role]);
}, 60_000);
afterAll(() => t.close());

const task = (userId: number) =>
  t.db.generationTask.create({ data: { userId, mode: "image_to_video", engine: "local", status: "succeeded", cost: 1, input: {}, isPublic: true } });

describe("users: ban and unban", () => {
  it("a ban revokes every token at once and is audited with its reason; unban lets the account log in again", async () => {
    const user = await visitor(t);
    await t.http.post(`/admin/api/users/${user.userId}/ban`).set("token", token("support")).send({ reason: "spam" }).expect(403);
    await t.http.post(`/admin/api/users/${user.userId}/ban`).set("token", token("moderator")).send({ reason: "" }).expect(400);
    const banned = await t.http.post(`/admin/api/users/${user.userId}/ban`).set("token", token("moderator")).send({ reason: "Repeated abuse" }).expect(200);
    expect(banned.body.bannedAt).not.toBeNull();
    // the token is revoked; it earns the ban's reason (docs/decisions/068), and after the unban a plain 401
    const refused = await t.http.get("/api/Personal/personal_info").set("token", user.token).expect(403);
    expect(refused.body.data).toMatchObject({ reason: "banned", ban_reason: "Repeated abuse" });
    expect(await t.db.ban.count({ where: { userId: user.userId, liftedAt: null } })).toBe(1);
    const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "User", resourceId: String(user.userId), action: "ban" } });
    expect(audit).toMatchObject({ staffId: as.moderator!.staffId, reason: "Repeated abuse" });

    const lifted = await t.http.post(`/admin/api/users/${user.userId}/unban`).set("token", token("moderator")).send({ reason: "Appeal accepted" }).expect(200);
    expect(lifted.body.bannedAt).toBeNull();
    expect(await t.db.ban.count({ where: { userId: user.userId, liftedAt: null } })).toBe(0);
    await t.http.get("/api/Personal/personal_info").set("token", user.token).expect(401);
    await t.http.post(`/admin/api/users/${user.userId}/unban`).set("token", token("moderator")).send({ reason: "again" }).expect(409);
    await t.http.post(`/admin/api/users/999999/ban`).set("token", token("moderator")).send({ reason: "nobody" }).expect(404);
  });
});

describe("users: payment permission and credits", () => {
  it("support grants and revokes payment permission, audited", async () => {
    const user = await visitor(t);
    await t.http.post(`/admin/api/users/${user.userId}/payment-permission`).set("token", token("marketer")).send({ granted: true, reason: "ok" }).expect(403);
    const res = await t.http
      .post(`/admin/api/users/${user.userId}/payment-permission`)
      .set("token", token("support"))
      .send({ granted: true, reason: "Verified by chat" })
      .expect(200);
    expect(res.body.paymentPermission).toBe(true);
    await t.http
      .post(`/admin/api/users/${user.userId}/payment-permission`)
      .set("token", token("support"))
      .send({ granted: false, reason: "Chargeback" })
      .expect(200);
    const actions = (await t.db.auditLog.findMany({ where: { resourceId: String(user.userId) }, orderBy: { id: "asc" } })).map((a) => a.action);
    expect(actions).toEqual(["grant_payment_permission", "revoke_payment_permission"]);
  });

  it("adjusts credits through the ledger: a retried submit moves credits once; never below zero", async () => {
    const user = await visitor(t);
    const start = (await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points;
    const key = crypto.randomUUID();
    const body = { delta: 40, reason: "Goodwill after outage", idempotencyKey: key };
    const results = await Promise.all([1, 2, 3].map(() => t.http.post(`/admin/api/users/${user.userId}/credits`).set("token", token("support")).send(body)));
    for (const r of results) expect(r.status).toBe(200);
    const after = await t.db.user.findUniqueOrThrow({ where: { id: user.userId } });
    expect(after.points).toBe(start + 40);
    const rows = await t.db.ledgerEntry.findMany({ where: { userId: user.userId, reason: "staff_adjustment" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: 40, staffId: as.support!.staffId, note: "Goodwill after outage" });
    expect(await t.db.auditLog.count({ where: { resourceId: String(user.userId), action: "adjust_credits" } })).toBe(1);

    const tooMuch = await t.http
      .post(`/admin/api/users/${user.userId}/credits`)
      .set("token", token("support"))
      .send({ delta: -(start + 41), reason: "Reverse", idempotencyKey: crypto.randomUUID() })
      .expect(402);
    expect(tooMuch.body.msg).toBe("Please get points first");
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(start + 40);
    expect(await t.db.auditLog.count({ where: { resourceId: String(user.userId), action: "adjust_credits" } })).toBe(1);

    await t.http
      .post(`/admin/api/users/${user.userId}/credits`)
      .set("token", token("support"))
      .send({ delta: -10, reason: "Duplicate grant", idempotencyKey: crypto.randomUUID() })
      .expect(200);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).points).toBe(start + 30);
    await t.http
      .post(`/admin/api/users/${user.userId}/credits`)
      .set("token", token("moderator"))
      .send({ delta: 5, reason: "no", idempotencyKey: crypto.randomUUID() })
      .expect(403);
    expect(
      (
        await t.http
          .post(`/admin/api/users/${user.userId}/credits`)
          .set("token", token("support"))
          .send({ delta: 0, reason: "zero", idempotencyKey: crypto.randomUUID() })
          .expect(400)
      ).body.msg,
    ).toBe("delta must not be 0");
  });

  it("finds users by email, uuid and nickname", async () => {
    const u = await t.db.user.create({ data: { email: "findme@example.com", nickname: "Seeker" } });
    for (const q of ["findme@", u.uuid, "seek"]) {
      const res = await t.http
        .get("/admin/api/users")
        .query({ filter: JSON.stringify({ q }) })
        .set("token", token("support"))
        .expect(200);
      expect(
        res.body.map((x: { id: number }) => x.id),
        q,
      ).toEqual([u.id]);
      expect(res.headers["content-range"]).toBe("users 0-0/1");
    }
  });

  it("shows each account by the name other people see: the nickname, SPEC's Guest_ form, or the creator page's title", async () => {
    // issue 46 item 15: the column read the raw nickname, which almost nobody sets
    const named = await t.db.user.create({ data: { email: "named-shown@example.com", nickname: "Seeker Two" } });
    const unnamed = await t.db.user.create({ data: { email: "unnamed-shown@example.com" } });
    const creator = await t.db.user.create({ data: { email: "creator-shown@example.com" } });
    await t.db.creatorPage.create({ data: { userId: creator.id, homeLink: "ShownByPage", title: "Alice Creates" } });
    const res = await t.http
      .get("/admin/api/users")
      .query({ filter: JSON.stringify({ q: "-shown@" }) })
      .set("token", token("support"))
      .expect(200);
    const shown = new Map(res.body.map((x: { id: number; publicName: string }) => [x.id, x.publicName]));
    expect(shown.get(named.id)).toBe("Seeker Two");
    expect(shown.get(unnamed.id)).toBe(`Guest_${unnamed.uuid.replace(/-/g, "").slice(-6)}`);
    expect(shown.get(creator.id)).toBe("Alice Creates");
    const one = await t.http.get(`/admin/api/users/${creator.id}`).set("token", token("support")).expect(200);
    expect(one.body).toMatchObject({ publicName: "Alice Creates", nickname: null });
    expect(one.body).not.toHaveProperty("creatorPage");
  });
});

describe("reports", () => {
  it("anyone may report, also without a login; bad input is a clear 400; unknown content 404", async () => {
    const owner = await visitor(t);
    const tk = await task(owner.userId);
    const res = await t.http.post("/api/report").send({ target_type: "task", target_id: tk.id, reason: "other", details: "spam" }).expect(200);
    const report = await t.db.report.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect(report).toMatchObject({ reporterUserId: null, targetUserId: owner.userId, status: "open" });
    expect((await t.http.post("/api/report").send({ target_type: "task", target_id: tk.id, reason: "boring" }).expect(400)).body.msg).toBe(
      "reason must be underage, non_consensual, impersonation, copyright or other",
    );
    await t.http.post("/api/report").send({ target_type: "character", target_id: 999999, reason: "other" }).expect(404);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: tk.id } })).state).toBe("active");
  });

  it("an underage report suspends the content the moment it arrives", async () => {
    const owner = await visitor(t);
    const reporter = await visitor(t);
    const tk = await task(owner.userId);
    await t.http.post("/api/report").set("token", reporter.token).send({ target_type: "task", target_id: tk.id, reason: "underage" }).expect(200);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: tk.id } })).state).toBe("suspended");
    const queue = await t.http
      .get("/admin/api/reports")
      .query({ filter: '{"status":"open","reason":"underage"}' })
      .set("token", token("moderator"))
      .expect(200);
    expect(queue.body.find((r: { targetId: number }) => r.targetId === tk.id)).toMatchObject({
      reporterUserId: reporter.userId,
      ageSeconds: expect.any(Number),
    });
  });

  it("dismiss, take down and ban the uploader; each once, each audited", async () => {
    const owner = await visitor(t);
    const tk = await task(owner.userId);
    const file = async (id = tk.id) =>
      (await t.http.post("/api/report").send({ target_type: "task", target_id: id, reason: "non_consensual" }).expect(200)).body.data.id as number;

    const a = await file();
    await t.http.post(`/admin/api/reports/${a}/dismiss`).set("token", token("support")).send({ reason: "nothing" }).expect(403);
    const dismissed = await t.http.post(`/admin/api/reports/${a}/dismiss`).set("token", token("moderator")).send({ reason: "Consent on file" }).expect(200);
    expect(dismissed.body).toMatchObject({ status: "dismissed", resolvedById: as.moderator!.staffId });
    await t.http.post(`/admin/api/reports/${a}/takedown`).set("token", token("moderator")).send({ reason: "late" }).expect(409);

    const b = await file();
    await t.http.post(`/admin/api/reports/${b}/takedown`).set("token", token("moderator")).send({ reason: "Confirmed" }).expect(200);
    expect((await t.db.generationTask.findUniqueOrThrow({ where: { id: tk.id } })).state).toBe("removed");
    await t.http.get("/api/Personal/personal_info").set("token", owner.token).expect(200);

    // content taken down is no longer public, so it cannot be reported again: the owner's other shared creation is
    const c = await file((await task(owner.userId)).id);
    await t.http.post(`/admin/api/reports/${c}/ban-uploader`).set("token", token("moderator")).send({ reason: "Repeat offender" }).expect(200);
    expect((await t.http.get("/api/Personal/personal_info").set("token", owner.token).expect(403)).body.data).toMatchObject({
      reason: "banned",
      ban_reason: "Repeat offender",
    });
    const actions = (
      await t.db.auditLog.findMany({ where: { reason: { in: ["Consent on file", "Confirmed", "Repeat offender"] } }, orderBy: { id: "asc" } })
    ).map((x) => `${x.resource}:${x.action}`);
    expect(actions).toEqual(["Report:dismiss", "Report:takedown", "Report:takedown", "User:ban"]);

    const ban = await t.db.ban.findFirstOrThrow({ where: { userId: owner.userId } });
    await t.http.post(`/admin/api/bans/${ban.id}/lift`).set("token", token("marketer")).send({ reason: "no" }).expect(403);
    const lifted = await t.http.post(`/admin/api/bans/${ban.id}/lift`).set("token", token("moderator")).send({ reason: "Appeal" }).expect(200);
    expect(lifted.body.liftedAt).not.toBeNull();
    const active = await t.http.get("/admin/api/bans").query({ filter: '{"active":true}' }).set("token", token("moderator")).expect(200);
    expect(active.body.map((x: { id: number }) => x.id)).not.toContain(ban.id);
  });
});

describe("staff accounts", () => {
  it("an admin creates a member whose password and one-time-code secret are shown once and work", async () => {
    const res = await t.http
      .post("/admin/api/staff")
      .set("token", token("admin"))
      .send({ username: "nina.support", roles: ["support"] })
      .expect(200);
    expect(res.body).toMatchObject({ username: "nina.support", roles: ["support"], password: expect.any(String), totpSecret: expect.any(String) });
    const again = await t.http.get(`/admin/api/staff/${res.body.id}`).set("token", token("admin")).expect(200);
    expect(again.body).not.toHaveProperty("password");
    expect(again.body).not.toHaveProperty("totpSecret");
    expect(again.body).not.toHaveProperty("passwordHash");
    // the list shows no secret either, as its documented answer says
    const listed = (await t.http.get("/admin/api/staff").set("token", token("admin")).expect(200)).body as Record<string, unknown>[];
    for (const row of listed) expect(Object.keys(row).filter((k) => /password|totp/i.test(k))).toEqual([]);
    const login = await t.http
      .post("/admin/api/login")
      .send({ username: "nina.support", password: res.body.password, code: totpCode(res.body.totpSecret) })
      .expect(200);
    await t.http.get("/admin/api/users").set("token", login.body.data.token).expect(200);
    await t.http
      .post("/admin/api/staff")
      .set("token", token("admin"))
      .send({ username: "nina.support", roles: ["support"] })
      .expect(409);

    const reset = await t.http.post(`/admin/api/staff/${res.body.id}/reset-password`).set("token", token("admin")).send({ reason: "Lost phone" }).expect(200);
    await t.http.get("/admin/api/users").set("token", login.body.data.token).expect(401);
    await t.http
      .post("/admin/api/login")
      .send({ username: "nina.support", password: res.body.password, code: totpCode(res.body.totpSecret) })
      .expect(400);
    await t.http
      .post("/admin/api/login")
      .send({ username: "nina.support", password: reset.body.password, code: totpCode(reset.body.totpSecret) })
      .expect(200);
    await t.http.post(`/admin/api/staff/${res.body.id}/reset-password`).set("token", token("moderator")).send({ reason: "no" }).expect(403);
  });

  it("taking a role away signs the member out; an admin cannot remove their own admin role", async () => {
    const m = await staffMember(t, ["marketer", "support"]);
    await t.http
      .put(`/admin/api/staff/${m.staffId}`)
      .set("token", token("admin"))
      .send({ roles: ["marketer"] })
      .expect(200);
    await t.http.get("/admin/api/orders").set("token", m.token).expect(401);
    await t.http
      .put(`/admin/api/staff/${as.admin!.staffId}`)
      .set("token", token("admin"))
      .send({ roles: ["support"] })
      .expect(409);
  });
});
