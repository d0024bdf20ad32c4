import crypto from "node:crypto";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { Principal } from "../../authz/principal.ts";
import type { EmailCodePurpose } from "../../contract/users.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { lockEmailCodes } from "./auth.queries.ts";
import { limitLoginsPerIp, type LoginResult, type SignIn } from "./auth.sign-in.ts";
import type { Mailer } from "./mailer.ts";

function codeHash(email: string, code: string): string {
  return crypto.createHash("sha256").update(`${email}:${code}`).digest("hex");
}

/** What an emailed code's message says, given the code and its minutes of validity. */
export type CodeMail = (code: string, minutes: number) => { subject: string; body: string };

const loginMail: CodeMail = (code, minutes) => ({
  subject: `Your Reverie code: ${code}`,
  body: `Your Reverie verification code is ${code}. It expires in ${minutes} minutes.`,
});

/** Email login: a 6-digit code sent to the address, then signed in with it; the same mechanism confirms other purposes. */
export function createEmailCodes(deps: { db: Db; config: Config; limiter: RateLimiter; mailer: Mailer; signIn: SignIn }) {
  const { db, config, limiter, mailer, signIn } = deps;

  /** Keeps a new code for the email and purpose, replacing any earlier one; 429 within the resend window of the last. */
  async function storeCode(email: string, purpose: EmailCodePurpose, code: string, ctx: ClientContext): Promise<void> {
    await db.$transaction(async (tx) => {
      await lockEmailCodes.rows(tx, { email });
      const last = await tx.emailCode.findFirst({ where: { email, purpose }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
      const waitMs = last ? last.createdAt.getTime() + config.EMAIL_CODE_RESEND_SECONDS * 1000 - Date.now() : 0;
      // The client counts down from resend_in; the message stays the one SPEC.md §8 keeps silent.
      if (waitMs > 0) throw new HttpError(429, MSG.tooManyRequests, { resend_in: Math.ceil(waitMs / 1000) });
      // a new code replaces any earlier one
      await tx.emailCode.updateMany({ where: { email, purpose, consumedAt: null }, data: { consumedAt: new Date() } });
      await tx.emailCode.create({
        data: { email, purpose, codeHash: codeHash(email, code), ip: ctx.ip, expiresAt: new Date(Date.now() + config.EMAIL_CODE_TTL_SECONDS * 1000) },
      });
    });
  }

  /**
   * Sends a 6-digit code for `purpose` valid for EMAIL_CODE_TTL_SECONDS, worded by `mail`; one code per email and
   * purpose per resend window. The hourly limits per address and network count every purpose together.
   */
  async function sendCode(email: string, purpose: EmailCodePurpose, ctx: ClientContext, mail: CodeMail) {
    await limiter.hit("email-code", [
      { key: `email:${email}`, limit: config.RATE_LIMIT_EMAIL_PER_HOUR, windowSeconds: 3600 },
      ...(ctx.ip ? [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_IP_PER_HOUR, windowSeconds: 3600 }] : []),
    ]);
    const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, "0");
    await storeCode(email, purpose, code, ctx);
    await mailer.send({ to: email, ...mail(code, Math.round(config.EMAIL_CODE_TTL_SECONDS / 60)), secret: code });
    return { expires_in: config.EMAIL_CODE_TTL_SECONDS, resend_in: config.EMAIL_CODE_RESEND_SECONDS };
  }

  return {
    /** The sign-in code. */
    sendEmailCode: (email: string, ctx: ClientContext) => sendCode(email, "login", ctx, loginMail),

    /** Checks the code (counting the attempt atomically) and signs in; the current guest's belongings follow. */
    async emailLogin(email: string, code: string, current: Principal, ctx: ClientContext): Promise<LoginResult> {
      await limitLoginsPerIp(limiter, config, "email-login", ctx);
      await consumeCode(email, "login", code);
      return signIn({ email }, current, ctx);
    },

    /** A code that proves a signed-in person still holds the address, for `purpose` (an account deletion, decision 262). */
    sendPurposeCode: sendCode,
    confirmEmailCode: consumeCode,
  };

  /** Uses up the address's current code of `purpose` when `code` is it, counting the attempt atomically; 400 otherwise. */
  async function consumeCode(email: string, purpose: EmailCodePurpose, code: string): Promise<void> {
    const active = await db.emailCode.findFirst({
      where: { email, purpose, consumedAt: null, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
    });
    if (!active) throw HttpError.badRequest(MSG.wrongCode);
    const counted = await db.emailCode.updateMany({
      where: { id: active.id, consumedAt: null, attempts: { lt: config.EMAIL_CODE_MAX_ATTEMPTS } },
      data: { attempts: { increment: 1 } },
    });
    if (counted.count === 0) throw HttpError.badRequest(MSG.wrongCode);
    const expected = Buffer.from(active.codeHash, "hex");
    const given = Buffer.from(codeHash(email, code), "hex");
    if (!crypto.timingSafeEqual(expected, given)) throw HttpError.badRequest(MSG.wrongCode);
    const consumed = await db.emailCode.updateMany({ where: { id: active.id, consumedAt: null }, data: { consumedAt: new Date() } });
    if (consumed.count === 0) throw HttpError.badRequest(MSG.wrongCode);
  }
}
