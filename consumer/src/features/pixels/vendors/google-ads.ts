import { globals, type PixelVendor } from "./vendor.ts";

/** "AW-123/label" -> "AW-123": the account a conversion id belongs to. */
const account = (id: string) => id.split("/")[0];

/**
 * Google Ads (gtag.js): `dataLayer` + `gtag`, `config` per account (which also counts the page view), then a
 * `conversion` event to each send_to id the channel configured for that event (SPEC.md §7: ids by event).
 */
export const googleAds: PixelVendor = {
  kind: "google_ads",
  hasScript: true,
  async init(ctx) {
    globals.dataLayer ??= [];
    globals.gtag ??= function gtag() {
      // gtag.js reads the Arguments object itself, as Google's snippet pushes it
      // eslint-disable-next-line prefer-rest-params
      globals.dataLayer.push(arguments);
    };
    const accounts = [...new Set(ctx.ids.map(account))];
    globals.gtag("js", new Date());
    for (const a of accounts) globals.gtag("config", a, { send_page_view: false });
    await ctx.loadScript(ctx.url("www.googletagmanager.com", `/gtag/js?id=${encodeURIComponent(accounts[0])}`));
  },
  async track(event, data, ctx) {
    if (event === "page_view") {
      for (const a of new Set(ctx.ids.map(account))) globals.gtag("event", "page_view", { send_to: a });
    }
    for (const sendTo of (await ctx.idsFor(event)).filter((id) => id.includes("/"))) {
      const params = {
        send_to: sendTo,
        ...(data.value !== undefined ? { value: data.value, currency: data.currency } : {}),
        ...(data.event_id ? { transaction_id: data.event_id } : {}),
      };
      globals.gtag("event", "conversion", params);
      ctx.sent({ event, name: "conversion", detail: JSON.stringify(params) });
    }
    if (event === "page_view") ctx.sent({ event, name: "page_view", detail: [...new Set(ctx.ids.map(account))].join(",") });
  },
};
