import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { openSession } from "./auth.sessions.ts";
import { verifyPassword } from "./password.ts";
import { matchingTotpStep } from "./totp.ts";

/** Console login: username, password (scrypt) and the one-time code of the staff member's authenticator. */
export function createStaffLogin(deps: { db: Db; config: Config; limiter: RateLimiter }) {
  const { db, config, limiter } = deps;
  return async function staffLogin(
    input: { username: string; password: string; code: string },
    ctx: ClientContext,
  ): Promise<{ token: string; staffId: number }> {
    await limiter.hit("staff-login", [
      { key: `user:${input.username.toLowerCase()}`, limit: 10, windowSeconds: 900 },
      ...(ctx.ip ? [{ key: `ip:${ctx.ip}`, limit: config.RATE_LIMIT_LOGIN_PER_MINUTE, windowSeconds: 60 }] : []),
    ]);
    const staff = await db.staff.findUnique({ where: { username: input.username } });
    const passwordOk = staff ? await verifyPassword(input.password, staff.passwordHash) : false;
    const step = staff?.active && passwordOk ? matchingTotpStep(staff.totpSecret, input.code) : null;
    if (!staff || step === null) throw HttpError.badRequest(MSG.noLoginPermission);
    // One conditional write claims the step, so a code seen over someone's shoulder, or sent twice at once, opens
    // at most one session (docs/decisions/008).
    const claimed = await db.staff.updateMany({
      where: { id: staff.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
      data: { totpLastStep: step },
    });
    if (claimed.count !== 1) throw HttpError.badRequest(MSG.noLoginPermission);
    const token = await openSession(db, { staffId: staff.id }, ctx, config.STAFF_SESSION_TTL_HOURS * 3_600_000);
    return { token, staffId: staff.id };
  };
}
