import crypto from "node:crypto";

/** The Telegram user a Mini App was opened by, from the `user` field of its initData. */
export interface TelegramUser {
  id: number;
  first_name?: string;
  last_name?: string;
  username?: string;
  language_code?: string;
  photo_url?: string;
}

export type InitDataCheck = { ok: true; user: TelegramUser; authDate: number } | { ok: false; why: string };

/**
 * Validates a Telegram Mini App's initData exactly as core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app
 * describes: every field but `hash`, as `key=value`, sorted by key and joined with "\n", is HMAC-SHA256'd with the key
 * HMAC-SHA256("WebAppData", bot token); the hex result must equal `hash`. `auth_date` older than `maxAgeSeconds`
 * (or in the future) is refused, so a leaked initData stops working.
 */
export function checkInitData(initData: string, botToken: string, maxAgeSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): InitDataCheck {
  const params = new URLSearchParams(initData);
  const hash = params.get("hash");
  if (!hash || !/^[0-9a-f]{64}$/.test(hash)) return { ok: false, why: "hash missing" };
  const fields = [...params.entries()].filter(([k]) => k !== "hash").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const checkString = fields.map(([k, v]) => `${k}=${v}`).join("\n");
  const secret = crypto.createHmac("sha256", "WebAppData").update(botToken).digest();
  const expected = crypto.createHmac("sha256", secret).update(checkString).digest();
  if (!crypto.timingSafeEqual(expected, Buffer.from(hash, "hex"))) return { ok: false, why: "hash does not match" };
  const authDate = Number(params.get("auth_date"));
  if (!Number.isInteger(authDate) || authDate > nowSeconds + 60 || nowSeconds - authDate > maxAgeSeconds) return { ok: false, why: "auth_date stale" };
  let user: TelegramUser;
  try {
    user = JSON.parse(params.get("user") ?? "") as TelegramUser;
  } catch {
    return { ok: false, why: "user is not JSON" };
  }
  if (!Number.isSafeInteger(user?.id) || user.id <= 0) return { ok: false, why: "user id missing" };
  return { ok: true, user, authDate };
}
