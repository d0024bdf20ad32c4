/**
 * Word lists of ad pixels, consent and conversions (SPEC.md §3, §7), shared by the server, the consumer app and
 * the console. Import-free on purpose: browser bundles take it as it is.
 */

/** SPEC.md §3: pixel kinds numbered 1 to 8, in this order (kind = index + 1). */
export const PIXEL_KINDS = ["facebook", "tiktok", "google_ads", "bigo", "bemob", "okspin", "exoclick", "vk_ads"] as const;
export type PixelKind = (typeof PIXEL_KINDS)[number];

/** SPEC.md §3/§7: the eight switch names getpixeLState answers, in kind order. */
export const PIXEL_SWITCHES = ["Facebook", "TikTok", "Google", "Bigo", "BeMob", "KSpin", "ExoClick", "Vk"] as const;
export type PixelSwitch = (typeof PIXEL_SWITCHES)[number];

/** SPEC.md §7: the events the app reports (Google Ads ids are configured per event). `order` is the purchase. */
export const PIXEL_EVENTS = ["page_view", "cart_add", "checkout_order", "payment_add", "order"] as const;
export type PixelEventName = (typeof PIXEL_EVENTS)[number];

/** What a visitor may consent to; `necessary` is always on. */
export const CONSENT_PURPOSES = ["necessary", "analytics", "advertising"] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/** Vendors Reverie also sends the purchase to server to server (Meta Conversions API, TikTok Events API, Google Ads). */
export const SERVER_CONVERSION_VENDORS = ["meta", "tiktok", "google_ads"] as const;
export type ServerConversionVendor = (typeof SERVER_CONVERSION_VENDORS)[number];

/** States of one server-side conversion in the outbox. */
export const CONVERSION_STATUSES = ["pending", "sent", "failed"] as const;
export type ConversionStatus = (typeof CONVERSION_STATUSES)[number];

/**
 * The purchase's event id, the same in the browser pixel and the server call, so each vendor counts the
 * purchase once (Meta eventID / event_id, TikTok event_id, Google Ads order id).
 */
export function purchaseEventId(orderId: number | string): string {
  return `purchase_${orderId}`;
}
