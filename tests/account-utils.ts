import type { FakeSmtp } from "./fixtures/smtp.ts";
import { visitor, type TestApp } from "./db-utils.ts";

/** Login limits loose enough for a file that starts many accounts from one address. */
export const MANY_LOGINS = { RATE_LIMIT_LOGIN_PER_MINUTE: "1000", RATE_LIMIT_VISITOR_PER_HOUR: "1000" };

/**
 * A saved account as a person makes one: a guest (with these headers: a device cookie, an invitation code) that signs
 * in with the code mailed to `email`.
 */
export async function savedAccount(t: TestApp, smtp: FakeSmtp, email: string, headers: Record<string, string> = {}) {
  const guest = await visitor(t, headers);
  await t.http.post("/api/login/sendEmailCode").set(headers).send({ email }).expect(200);
  const res = await t.http
    .post("/api/login/emailLogin")
    .set(headers)
    .set("token", guest.token)
    .send({ email, code: smtp.codeFor(email) })
    .expect(200);
  return { token: res.body.data.token as string, userId: res.body.data.user_info.id as number };
}
