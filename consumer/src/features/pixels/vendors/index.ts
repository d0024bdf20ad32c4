import { PIXEL_KINDS, type PixelKind } from "../../../../../server/src/contract/pixels.ts";
import { bemob } from "./bemob.ts";
import { bigo } from "./bigo.ts";
import { exoclick } from "./exoclick.ts";
import { facebook } from "./facebook.ts";
import { googleAds } from "./google-ads.ts";
import { okspin } from "./okspin.ts";
import { tiktok } from "./tiktok.ts";
import type { PixelVendor } from "./vendor.ts";
import { vkAds } from "./vk-ads.ts";

const BY_KIND: Record<PixelKind, PixelVendor> = { facebook, tiktok, google_ads: googleAds, bigo, bemob, okspin, exoclick, vk_ads: vkAds };

/** The eight vendors in kind order (SPEC.md §3: kind = index + 1). */
export const VENDORS: PixelVendor[] = PIXEL_KINDS.map((k) => BY_KIND[k]);
