/**
 * Everything the app keeps in the browser, under one product prefix (SPEC.md §3) so nothing collides with
 * other apps on the same origin. Storage can be unavailable (private modes, blocked cookies): reads then
 * return null and writes are dropped, and the app keeps working for the current page.
 */
export const STORAGE_PREFIX = "reverie_";

export type StoredKey =
  | "token"
  | "uuid"
  | "playerUid"
  | "loginType"
  | "channel_id"
  | "cid"
  | "utm_campaign"
  | "utm_adset"
  | "utm_ad"
  | "fbclid"
  | "ttclid"
  | "gclid"
  | "app_version"
  | "language"
  | "age_confirmed"
  | "payment_verification"
  | "flash_sale_seen"
  | "channel_login_pending"
  | "consent"
  | "pixel_cache"
  | "purchases_reported"
  | "exo_click_id"
  | "referral_code"
  | "ban_notice";

export const storage = {
  get(key: StoredKey): string | null {
    try {
      return localStorage.getItem(STORAGE_PREFIX + key);
    } catch {
      return null;
    }
  },
  set(key: StoredKey, value: string): void {
    try {
      localStorage.setItem(STORAGE_PREFIX + key, value);
    } catch {
      // storage full or blocked: the value lives for this page only
    }
  },
  remove(key: StoredKey): void {
    try {
      localStorage.removeItem(STORAGE_PREFIX + key);
    } catch {
      // nothing stored, nothing to remove
    }
  },
  getJson<T>(key: StoredKey): T | null {
    const raw = storage.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: StoredKey, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};

/** SPEC.md §3/§9: the BeMob click id is a first-party cookie kept 30 days. */
export const BEMOB_COOKIE = `${STORAGE_PREFIX}bemob_cid`;
const CLICK_ID_COOKIE_DAYS = 30;

export function setClickIdCookie(value: string): void {
  const maxAge = CLICK_ID_COOKIE_DAYS * 86_400;
  document.cookie = `${BEMOB_COOKIE}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax`;
}

export function clickIdCookie(): string | null {
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${BEMOB_COOKIE}=`));
  return hit ? decodeURIComponent(hit.slice(BEMOB_COOKIE.length + 1)) : null;
}

/** Forgets the login (logout, or a 401 from the API). Attribution and preferences stay. */
export function clearStoredSession(): void {
  for (const key of ["token", "uuid", "loginType", "playerUid"] as const) storage.remove(key);
}
