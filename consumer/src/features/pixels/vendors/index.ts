import type { PixelKind } from "../../../../../server/src/contract/pixels.ts";
import type { PixelVendor } from "./vendor.ts";

/** Each vendor's code is fetched only when its switch is on for the visitor's channel. */
export const VENDOR_LOADERS: Record<PixelKind, () => Promise<PixelVendor>> = {
  facebook: () => import("./facebook.ts").then((m) => m.facebook),
  tiktok: () => import("./tiktok.ts").then((m) => m.tiktok),
  google_ads: () => import("./google-ads.ts").then((m) => m.googleAds),
  bigo: () => import("./bigo.ts").then((m) => m.bigo),
  bemob: () => import("./bemob.ts").then((m) => m.bemob),
  okspin: () => import("./okspin.ts").then((m) => m.okspin),
  exoclick: () => import("./exoclick.ts").then((m) => m.exoclick),
  vk_ads: () => import("./vk-ads.ts").then((m) => m.vkAds),
};
