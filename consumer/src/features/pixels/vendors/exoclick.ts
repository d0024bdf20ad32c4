import type { PixelVendor } from "./vendor.ts";

/**
 * ExoClick conversion tracking: one call per goal id the channel lists, with the click's `{conversions_tracking}`
 * value (arrives as `exo_click_id` on the landing URL). Only the purchase is a goal.
 */
export const exoclick: PixelVendor = {
  kind: "exoclick",
  hasScript: false,
  async init() {},
  async track(event, data, ctx) {
    const tag = ctx.clickId("exoclick");
    if (!tag || event !== "order") return;
    for (const goal of ctx.ids) {
      const q = new URLSearchParams({ goal, tag });
      if (data.value !== undefined) q.set("value", String(data.value));
      ctx.sent({ event, name: "goal", detail: q.toString() });
      await ctx.firePixel(ctx.url("s.magsrv.com", `/tag.php?${q}`));
    }
  },
};
