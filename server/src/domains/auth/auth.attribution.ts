import type { Attribution } from "../../http/client-context.ts";

/** The attribution an account keeps in its own columns; the invitation code is the rewards domain's (docs/decisions/302). */
type Stored = Exclude<keyof Attribution, "referralCode">;

/** Where a visitor came from (SPEC.md §7 request headers), as the users columns that record it on first touch. */
export function attributionData(a: Attribution) {
  return { channelId: a.channelId, utmCampaign: a.utmCampaign, utmAdset: a.utmAdset, utmAd: a.utmAd, bemobClickId: a.bemobClickId };
}

/** The attribution an account has stored, without its empty columns. */
export function storedAttribution(user: Record<Stored, string | null>): Attribution {
  const a = attributionData(user as Attribution);
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null)) as Attribution;
}

/** First touch wins: an account keeps the channel and campaign it came from, and only gains what it lacks. */
export function missingAttribution(user: Record<Stored, string | null>, a: Attribution) {
  const given = attributionData(a);
  return Object.fromEntries(Object.entries(given).filter(([k, v]) => v !== undefined && user[k as Stored] === null));
}
