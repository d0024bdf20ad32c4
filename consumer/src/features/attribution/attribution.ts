import { REFERRAL_HEADER, REFERRAL_PARAM } from "../../../../server/src/contract/rewards.ts";
import { clickIdCookie, setClickIdCookie, storage, type StoredKey } from "../../lib/storage.ts";

/** Landing-URL parameters remembered for attribution (SPEC.md §3), with the URL spellings they arrive in. */
const LANDING_PARAMS: Array<[StoredKey, string[]]> = [
  ["channel_id", ["channel_id", "channel"]],
  ["cid", ["cid"]],
  ["utm_campaign", ["utm_campaign"]],
  ["utm_adset", ["utm_adset"]],
  ["utm_ad", ["utm_ad"]],
  ["fbclid", ["fbclid"]],
  ["ttclid", ["ttclid"]],
  ["gclid", ["gclid"]],
  ["app_version", ["app_version"]],
  // ExoClick's {conversions_tracking} value, put on the campaign URL under this name
  ["exo_click_id", ["exo_click_id"]],
  // an invitation (docs/decisions/302): sent with the calls, recorded when this browser's account is started
  ["referral_code", [REFERRAL_PARAM]],
];

/**
 * Stores the UTM and click-id parameters of the URL the visitor landed on. A later landing with new values
 * replaces them (last touch); a landing without them keeps what was stored.
 */
export function captureLandingParams(search: string): void {
  const params = new URLSearchParams(search);
  for (const [key, names] of LANDING_PARAMS) {
    const value = names.map((n) => params.get(n)).find((v) => v !== null && v.trim() !== "");
    if (value) storage.set(key, value.trim().slice(0, 200));
  }
  const bemob = params.get("cid") ?? params.get("bemob_cid");
  if (bemob) setClickIdCookie(bemob.trim().slice(0, 200));
}

/** The SPEC.md §7 attribution headers every call carries. */
export function attributionHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const pairs: Array<[string, StoredKey]> = [
    ["channel-id", "channel_id"],
    ["utm-campaign", "utm_campaign"],
    ["utm-adset", "utm_adset"],
    ["utm-ad", "utm_ad"],
    [REFERRAL_HEADER, "referral_code"],
  ];
  for (const [header, key] of pairs) {
    const value = storage.get(key);
    if (value) headers[header] = value;
  }
  const bemob = clickIdCookie();
  if (bemob) headers["bemob-click-id"] = bemob;
  return headers;
}
