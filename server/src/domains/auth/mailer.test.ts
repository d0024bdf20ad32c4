import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp } from "../../../../tests/fixtures/smtp.ts";

type Smtp = Awaited<ReturnType<typeof startFakeSmtp>>;

describe("email over SMTP", () => {
  let smtp: Smtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startFakeSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "Reverie <codes@reverie.test>" });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it("sends the login code with nodemailer and marks the outbox row sent", async () => {
    await t.http.post("/api/login/sendEmailCode").send({ email: "mia@example.com" }).expect(200);
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe("codes@reverie.test");
    expect(mail.to).toEqual(["mia@example.com"]);
    const code = mail.data.match(/verification code is (\d{6})/)?.[1];
    expect(code).toBeDefined();
    const row = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "mia@example.com" } });
    expect(row.sentAt).not.toBeNull();
    expect(row.error).toBeNull();
    await t.http.post("/api/login/emailLogin").send({ email: "mia@example.com", code }).expect(200);
  });
});

describe("a refused email", () => {
  it("stays in the outbox with the server's error, for staff to see", async () => {
    const smtp = await startFakeSmtp({ rejectRecipients: true });
    const t = await createTestApp({ SMTP_URL: smtp.url });
    try {
      await t.http.post("/api/login/sendEmailCode").send({ email: "nobody@example.com" }).expect(200);
      const row = await t.db.outboxEmail.findFirstOrThrow({ where: { to: "nobody@example.com" } });
      expect(row.sentAt).toBeNull();
      expect(row.error).toMatch(/550/);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
