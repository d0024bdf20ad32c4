import type { PixelEventName } from "../../../../../server/src/contract/pixels.ts";
import { globals, valueParams, type PixelVendor } from "./vendor.ts";

/** TikTok's standard events (page views go through ttq.page()). */
const NAMES: Record<PixelEventName, string> = {
  page_view: "Pageview",
  cart_add: "AddToCart",
  checkout_order: "InitiateCheckout",
  payment_add: "AddPaymentInfo",
  order: "CompletePayment",
};

/** Methods TikTok's base code defers until events.js has loaded. */
const METHODS = [
  "page",
  "track",
  "identify",
  "instances",
  "debug",
  "on",
  "off",
  "once",
  "ready",
  "alias",
  "group",
  "enableCookie",
  "disableCookie",
  "holdConsent",
  "revokeConsent",
  "grantConsent",
];

/** TikTok Pixel: the `ttq` array with deferred methods, one events.js per pixel id (`sdkid`), then ttq.page(). */
export const tiktok: PixelVendor = {
  kind: "tiktok",
  hasScript: true,
  async init(ctx) {
    globals.TiktokAnalyticsObject = "ttq";
    const ttq = (globals.ttq ??= []) as unknown[] & Record<string, unknown>;
    for (const m of METHODS) ttq[m] ??= (...args: unknown[]) => ttq.push([m, ...args]);
    ttq._i ??= {};
    ttq._t ??= {};
    const loads = ctx.ids.map((id) => {
      (ttq._i as Record<string, unknown[]>)[id] = [];
      (ttq._t as Record<string, number>)[id] = Date.now();
      return ctx.loadScript(ctx.url("analytics.tiktok.com", `/i18n/pixel/events.js?sdkid=${encodeURIComponent(id)}&lib=ttq`));
    });
    if (ctx.deviceId) (ttq.identify as (p: unknown) => void)({ external_id: ctx.deviceId });
    await Promise.all(loads);
  },
  track(event, data, ctx) {
    const ttq = globals.ttq as Record<string, (...a: unknown[]) => void>;
    const options = data.event_id ? { event_id: data.event_id } : {};
    if (event === "page_view") ttq.page();
    else ttq.track(NAMES[event], valueParams(data), options);
    ctx.sent({ event, name: NAMES[event], detail: JSON.stringify({ ...valueParams(data), ...options }) });
  },
};
