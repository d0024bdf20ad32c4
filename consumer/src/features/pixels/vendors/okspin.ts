import type { PixelVendor } from "./vendor.ts";

/**
 * OKSpin: its postback address is configured per channel as a URL template (pixelList kind 6); `{event}`,
 * `{value}`, `{currency}`, `{order_id}`, `{event_id}` and `{click_id}` are filled in. Every step but page views
 * is posted back; only https templates are used.
 */
export const okspin: PixelVendor = {
  kind: "okspin",
  hasScript: false,
  async init() {},
  async track(event, data, ctx) {
    if (event === "page_view") return;
    const fill: Record<string, string> = {
      event,
      value: data.value !== undefined ? String(data.value) : "",
      currency: data.currency ?? "",
      order_id: data.order_id !== undefined ? String(data.order_id) : "",
      event_id: data.event_id ?? "",
      click_id: ctx.clickId("cid") ?? "",
    };
    for (const template of ctx.ids) {
      let target: URL;
      try {
        target = new URL(template.replace(/\{(\w+)\}/g, (m, k: string) => (k in fill ? encodeURIComponent(fill[k]) : m)));
      } catch {
        continue;
      }
      if (target.protocol !== "https:") continue;
      ctx.sent({ event, name: "postback", detail: target.host + target.pathname + target.search });
      await ctx.firePixel(ctx.url(target.host, target.pathname + target.search));
    }
  },
};
