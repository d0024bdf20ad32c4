import type { PixelEventName } from "../../../../../server/src/contract/pixels.ts";
import { globals, type PixelVendor } from "./vendor.ts";

/** VK Ads goals: free names, created as JS-event goals under these names in the counter (decision 193); page views are the counter's own. */
const GOALS: Record<PixelEventName, string> = {
  page_view: "pageView",
  cart_add: "cart_add",
  checkout_order: "checkout_order",
  payment_add: "payment_add",
  order: "purchase",
};

/** VK Ads (Top.Mail.Ru counter): the `_tmr` queue, a pageView per counter id, then code.js. */
export const vkAds: PixelVendor = {
  kind: "vk_ads",
  hasScript: true,
  async init(ctx) {
    globals._tmr ??= [];
    await ctx.loadScript(ctx.url("top-fwz1.mail.ru", "/js/code.js"), { id: "tmr-code" });
  },
  track(event, data, ctx) {
    for (const id of ctx.ids) {
      const entry =
        event === "page_view"
          ? { id, type: "pageView", start: Date.now() }
          : { id, type: "reachGoal", goal: GOALS[event], ...(data.value !== undefined ? { value: data.value } : {}) };
      globals._tmr.push(entry);
      ctx.sent({ event, name: GOALS[event], detail: JSON.stringify(entry) });
    }
  },
};
