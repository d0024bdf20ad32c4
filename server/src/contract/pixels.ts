/** Tracking pixel words of SPEC.md §3. Import-free (docs/decisions/050). */

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

/** Pixel kinds 1..8 by name; kind n switches PIXEL_FLAGS[n - 1]. */
export const PIXEL_KINDS = ["Facebook", "TikTok", "Google Ads", "Bigo", "BeMob", "OKSpin", "ExoClick", "VK Ads"] as const;

export const GOOGLE_EVENTS = ["page_view", "cart_add", "checkout_order", "payment_add", "order"] as const;
