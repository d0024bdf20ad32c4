import type { PixelEventName } from "../../../../../server/src/contract/pixels.ts";
import { globals, valueParams, type PixelVendor } from "./vendor.ts";

/** Bigo Ads web events (Bigo's "Standard Events" table, decision 193); Bigo has no web event for adding payment details. */
const NAMES: Record<PixelEventName, string | null> = {
  page_view: "page_view",
  cart_add: "ec_add_cart",
  checkout_order: "ec_order",
  payment_add: null,
  order: "ec_purchase",
};

/** Bigo Ads pixel: the `bge` queue over `bgdataLayer`, `init` per pixel id, then Bigo's events.js. */
export const bigo: PixelVendor = {
  kind: "bigo",
  hasScript: true,
  async init(ctx) {
    globals.bgdataLayer ??= [];
    globals.bge ??= function bge() {
      // eslint-disable-next-line prefer-rest-params
      globals.bgdataLayer.push(arguments);
    };
    for (const id of ctx.ids) globals.bge("init", id);
    await ctx.loadScript(ctx.url("api.imotech.video", `/ad/events.js?pixel_id=${encodeURIComponent(ctx.ids[0])}`));
  },
  track(event, data, ctx) {
    const name = NAMES[event];
    if (!name) return;
    const params = { ...valueParams(data), ...(data.event_id ? { event_id: data.event_id } : {}) };
    globals.bge("event", name, params);
    ctx.sent({ event, name, detail: JSON.stringify(params) });
  },
};
