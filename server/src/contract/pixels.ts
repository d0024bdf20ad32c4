/** Tracking pixel words of SPEC.md §3/§7, consent and conversions (issue 18). Import-free (docs/decisions/050). */

/**
 * The channel of every visitor who arrived without a channel (or with one that does not exist): its rules, pixel
 * switches included, and "Payment needs permission", apply to direct visitors, not only to `?channel=default`.
 */
export const DEFAULT_CHANNEL = "default";

/** The eight switches: column name and the label the consumer app reads, in SPEC order. */
export const PIXEL_FLAGS = [
  ["facebook", "Facebook"],
  ["tiktok", "TikTok"],
  ["google", "Google"],
  ["bigo", "Bigo"],
  ["bemob", "BeMob"],
  ["kspin", "KSpin"],
  ["exoclick", "ExoClick"],
  ["vk", "Vk"],
] as const;
export type PixelFlagColumn = (typeof PIXEL_FLAGS)[number][0];
/** A switch as getpixeLState names it. */
export type PixelSwitch = (typeof PIXEL_FLAGS)[number][1];

/** Pixel kinds 1..8 by name; kind n switches PIXEL_FLAGS[n - 1]. */
export const PIXEL_KINDS = ["Facebook", "TikTok", "Google Ads", "Bigo", "BeMob", "OKSpin", "ExoClick", "VK Ads"] as const;

/** The same kinds as code keys (vendor files, i18n keys, outbox rows), in kind order: kind n = PIXEL_KIND_KEYS[n - 1]. */
export const PIXEL_KIND_KEYS = ["facebook", "tiktok", "google_ads", "bigo", "bemob", "okspin", "exoclick", "vk_ads"] as const;
export type PixelKind = (typeof PIXEL_KIND_KEYS)[number];

/** SPEC.md §7: the events the app reports; Google Ads ids are configured per event. `order` is the purchase. */
export const PIXEL_EVENTS = ["page_view", "cart_add", "checkout_order", "payment_add", "order"] as const;
export type PixelEventName = (typeof PIXEL_EVENTS)[number];

/** What a visitor may consent to; `necessary` is always on (docs/decisions/120). */
export const CONSENT_PURPOSES = ["necessary", "analytics", "advertising"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/** Vendors Reverie also sends the purchase to server to server (Meta Conversions API, TikTok Events API, Google Ads). */
export const SERVER_CONVERSION_VENDORS = ["meta", "tiktok", "google_ads"] as const;
export type ServerConversionVendor = (typeof SERVER_CONVERSION_VENDORS)[number];

/**
 * The credentials of each conversion API that are secrets: kept sealed in the secret store, written by admins,
 * never read back (docs/decisions/191). Every other field (pixel ids, customer ids) stays in the channel row.
 */
export const SERVER_CONVERSION_SECRET_FIELDS = {
  meta: ["accessToken"],
  tiktok: ["accessToken"],
  google_ads: ["developerToken", "clientSecret", "refreshToken"],
} as const;
export type ServerConversionSecretField = (typeof SERVER_CONVERSION_SECRET_FIELDS)[ServerConversionVendor][number];

/** States of one server-side conversion in the outbox (docs/decisions/121). */
export const CONVERSION_STATUSES = ["pending", "sent", "failed"] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

/**
 * The purchase's event id, the same in the browser pixel and the server call, so each vendor counts the
 * purchase once (Meta eventID / event_id, TikTok event_id, Google Ads order id).
 */
export function purchaseEventId(orderId: number | string): string {
  return `purchase_${orderId}`;
}
