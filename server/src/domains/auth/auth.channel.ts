import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Principal } from "../../authz/principal.ts";
import type { ClientContext } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { limitLoginsPerIp, type LoginResult, type SignIn } from "./auth.sign-in.ts";
import { checkInitData } from "./telegram.ts";

/**
 * Messaging-channel login (SPEC.md §4/§7 channelServerLogin): the Telegram Mini App's initData, validated with the
 * bot token, identifies the player; their account is found, or the current guest becomes it (or is merged into
 * it) exactly like the other logins. `serverId` is the bot's id: which channel deployment the player is on.
 */
export function createChannelLogin(deps: { config: Config; limiter: RateLimiter; log: Logger; signIn: SignIn }) {
  const { config, limiter, log, signIn } = deps;
  return async function channelLogin(
    channelToken: string,
    current: Principal,
    ctx: ClientContext,
  ): Promise<LoginResult & { playerUid: string; serverId: string }> {
    const botToken = config.TELEGRAM_BOT_TOKEN;
    if (!botToken) throw new HttpError(503, "Channel login is not configured");
    await limitLoginsPerIp(limiter, config, "channel-login", ctx);
    const check = checkInitData(channelToken, botToken, config.TELEGRAM_INIT_DATA_MAX_AGE_SECONDS);
    if (!check.ok) {
      log.info({ why: check.why }, "channel login refused");
      throw HttpError.badRequest(MSG.noLoginPermission);
    }
    const playerUid = String(check.user.id);
    const nickname = [check.user.first_name, check.user.last_name].filter(Boolean).join(" ") || check.user.username;
    const result = await signIn({ playerUid, nickname: nickname?.slice(0, 64), photo: check.user.photo_url }, current, ctx);
    return { ...result, playerUid, serverId: botToken.split(":")[0] };
  };
}
