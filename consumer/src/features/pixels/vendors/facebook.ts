import type { PixelEventName } from "../../../../../server/src/contract/pixels.ts";
import { globals, valueParams, type PixelVendor } from "./vendor.ts";

/** Meta's standard events. */
const NAMES: Record<PixelEventName, string> = {
  page_view: "PageView",
  cart_add: "AddToCart",
  checkout_order: "InitiateCheckout",
  payment_add: "AddPaymentInfo",
  order: "Purchase",
};

/** Meta Pixel: the `fbq` queue function of Meta's base code, then fbevents.js, which drains the queue. */
export const facebook: PixelVendor = {
  kind: "facebook",
  hasScript: true,
  async init(ctx) {
    if (!globals.fbq) {
      const fbq = ((...args: unknown[]) => {
        if (fbq.callMethod) fbq.callMethod(...args);
        else fbq.queue.push(args);
      }) as ((...args: unknown[]) => void) & { callMethod?: (...a: unknown[]) => void; queue: unknown[][]; push: unknown; loaded: boolean; version: string };
      fbq.push = fbq;
      fbq.loaded = true;
      fbq.version = "2.0";
      fbq.queue = [];
      globals.fbq = fbq;
      globals._fbq ??= fbq;
    }
    for (const id of ctx.ids) globals.fbq("init", id, ctx.deviceId ? { external_id: ctx.deviceId } : {});
    await ctx.loadScript(ctx.url("connect.facebook.net", "/en_US/fbevents.js"));
  },
  track(event, data, ctx) {
    const params = valueParams(data);
    const options = data.event_id ? { eventID: data.event_id } : {};
    globals.fbq("track", NAMES[event], params, options);
    ctx.sent({ event, name: NAMES[event], detail: JSON.stringify({ ...params, ...options }) });
  },
};
