import type { PixelEventName, PixelKind } from "../../../../../server/src/contract/pixels.ts";

/** What an event carries; the purchase has its order, amount and the event id the server's conversion shares. */
export interface PixelEventData {
  value?: number;
  currency?: string;
  order_id?: number | string;
  event_id?: string;
}

/** What one fired call looked like, for the test pages ("see what was sent"). */
export interface SentCall {
  kind: PixelKind;
  event: PixelEventName;
  /** the vendor's own name for it (PageView, CompletePayment, ec_purchase...) */
  name: string;
  detail: string;
}

export interface VendorContext {
  /** ids (or domains, or postback templates) from pixelList for this kind */
  ids: string[];
  /** Google Ads: the conversion ids configured for one event */
  idsFor(event: PixelEventName): Promise<string[]>;
  /** the vendor's official address, or the same path under the configured script host (tests) */
  url(host: string, pathAndQuery: string): string;
  loadScript(src: string, attrs?: Record<string, string>): Promise<void>;
  firePixel(url: string): Promise<void>;
  /** attribution captured from the landing URL */
  clickId(name: "bemob" | "exoclick" | "cid"): string | null;
  deviceId: string | null;
  sent(call: Omit<SentCall, "kind">): void;
}

/**
 * One ad vendor. `init` installs the vendor's queue stub and starts its script the way the vendor's own snippet
 * does (so calls made while it loads are queued, not lost); `track` maps Reverie's event to the vendor's.
 * Vendors without a script (image pixels) have no `init` work beyond remembering their ids.
 */
export interface PixelVendor {
  kind: PixelKind;
  /** false: an image/postback pixel, nothing to load */
  hasScript: boolean;
  init(ctx: VendorContext): Promise<void>;
  track(event: PixelEventName, data: PixelEventData, ctx: VendorContext): Promise<void> | void;
}

/** The browser globals vendor snippets define (fbq, ttq, gtag...), typed loosely on purpose: they are the vendors'. */
export const globals = window as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Amounts go to vendors in major units (orders keep minor units). */
export function valueParams(data: PixelEventData): Record<string, unknown> {
  return data.value !== undefined ? { value: data.value, currency: data.currency } : {};
}
