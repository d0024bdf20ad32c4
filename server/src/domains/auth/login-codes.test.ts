import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StaffRole } from "../../db/generated/enums.ts";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { staffMember } from "../../../../tests/staff-utils.ts";

/** Issue 12 item 3: a login code is readable by its recipient only; no staff role can take it from the outbox. */
const codesIn = (text: string) => text.match(/\b\d{6}\b/g) ?? [];

describe("without SMTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("the outbox keeps the code email with the code masked, and every staff role that may read it sees no code", async () => {
    await t.http.post("/api/login/sendEmailCode").send({ email: "victim@example.com" }).expect(200);
    const row = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "victim@example.com" } });
    expect(codesIn(row.subject + row.body)).toEqual([]);
    expect(row.body).toContain("••••••");
    for (const role of Object.values(StaffRole)) {
      const staff = await staffMember(t, [role]);
      const list = await t.http
        .get("/admin/api/outbox")
        .query({ filter: JSON.stringify({ to: "victim@example.com" }) })
        .set("token", staff.token);
      if (list.status === 403) continue;
      expect(list.status).toBe(200);
      expect(codesIn(JSON.stringify(list.body))).toEqual([]);
      const one = await t.http.get(`/admin/api/outbox/${row.id}`).set("token", staff.token).expect(200);
      expect(codesIn(JSON.stringify(one.body))).toEqual([]);
    }
  });

  it("reading the outbox is audited: who, which filter, which email", async () => {
    const support = await staffMember(t, ["support"]);
    const row = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "victim@example.com" } });
    await t.http
      .get("/admin/api/outbox")
      .query({ filter: JSON.stringify({ to: "victim@example.com" }) })
      .set("token", support.token)
      .expect(200);
    await t.http.get(`/admin/api/outbox/${row.id}`).set("token", support.token).expect(200);
    const audit = await t.db.auditLog.findMany({ where: { staffId: support.staffId, resource: "OutboxEmail" }, orderBy: { id: "asc" } });
    expect(audit.map((a) => [a.action, a.resourceId])).toEqual([
      ["list", null],
      ["read", String(row.id)],
    ]);
    expect(audit[0].after).toMatchObject({ filter: { to: "victim@example.com" } });
  });
});

describe("with SMTP", () => {
  let t: TestApp;
  let smtp: FakeSmtp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("the recipient gets the code; the outbox row that records the sending holds no code", async () => {
    await t.http.post("/api/login/sendEmailCode").send({ email: "mia@example.com" }).expect(200);
    const code = smtp.codeFor("mia@example.com");
    const row = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "mia@example.com" } });
    expect(row.sentAt).not.toBeNull();
    expect(codesIn(row.subject + row.body)).toEqual([]);
    // a support agent with everything the console shows still cannot sign in as her
    const support = await staffMember(t, ["support", "moderator", "marketer", "admin"]);
    const seen = JSON.stringify((await t.http.get("/admin/api/outbox").set("token", support.token).expect(200)).body);
    for (const guess of codesIn(seen)) await t.http.post("/api/login/emailLogin").send({ email: "mia@example.com", code: guess }).expect(400);
    await t.http.post("/api/login/emailLogin").send({ email: "mia@example.com", code }).expect(200);
  });

  it("a staff token is no way into a user's login: the user endpoints refuse to sign in a staff session's caller as someone else", async () => {
    const support = await staffMember(t, ["support"]);
    await t.http.post("/api/login/sendEmailCode").set("token", support.token).send({ email: "ann@example.com" }).expect(200);
    const code = smtp.codeFor("ann@example.com");
    // even holding the right code, a staff session cannot be turned into the user's login
    await t.http.post("/api/login/emailLogin").set("token", support.token).send({ email: "ann@example.com", code }).expect(403);
  });
});
