import type { PixelEventName } from "../../../../../server/src/contract/pixels.ts";
import type { PixelVendor } from "./vendor.ts";

/**
 * BeMob conversion pixel on the tracking domains the channel lists: `conversion.gif?cid=<click id>` with payout
 * and txid for the purchase, other steps as custom conversion types (`cet`). BeMob records only conversions with
 * the visit's click id, so without the click id cookie nothing is sent.
 */
export const bemob: PixelVendor = {
  kind: "bemob",
  hasScript: false,
  async init() {},
  async track(event: PixelEventName, data, ctx) {
    const cid = ctx.clickId("bemob");
    if (!cid || event === "page_view") return;
    const q = new URLSearchParams({ cid });
    if (event === "order") {
      if (data.value !== undefined) q.set("payout", String(data.value));
      if (data.event_id) q.set("txid", data.event_id);
    } else q.set("cet", event);
    for (const domain of ctx.ids) {
      ctx.sent({ event, name: event === "order" ? "conversion" : `cet=${event}`, detail: `${domain} ${q}` });
      await ctx.firePixel(ctx.url(domain, `/conversion.gif?${q}`));
    }
  },
};
