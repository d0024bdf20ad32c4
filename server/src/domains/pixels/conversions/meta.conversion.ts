import type { ConversionSender } from "./sender.ts";
import { failure, sha256 } from "./sender.ts";

/**
 * Meta Conversions API: POST {graph}/{pixel id}/events with the access token, one `Purchase` web event whose
 * `event_id` is the browser pixel's eventID, so Meta keeps one of the two.
 */
export function metaConversions(graphUrl: string): ConversionSender<"meta"> {
  return {
    vendor: "meta",
    applies: () => true,
    async send(c, s, http) {
      const ctx = c.context;
      const user_data: Record<string, unknown> = {};
      if (ctx.client_ip) user_data.client_ip_address = ctx.client_ip;
      if (ctx.user_agent) user_data.client_user_agent = ctx.user_agent;
      if (ctx.device_id) user_data.external_id = [sha256(ctx.device_id)];
      if (ctx.fbp) user_data.fbp = ctx.fbp;
      // fbc as Meta builds it from a landing fbclid: version.subdomain-index.creation-time.fbclid
      if (ctx.fbclid) user_data.fbc = `fb.1.${c.occurredAt.getTime()}.${ctx.fbclid}`;
      const body = {
        data: [
          {
            event_name: "Purchase",
            event_time: Math.floor(c.occurredAt.getTime() / 1000),
            event_id: c.eventId,
            action_source: "website",
            ...(ctx.page_url ? { event_source_url: ctx.page_url } : {}),
            user_data,
            custom_data: { currency: c.currency, value: Number(c.value), order_id: String(c.orderId) },
          },
        ],
        ...(s.testEventCode ? { test_event_code: s.testEventCode } : {}),
      };
      const url = `${graphUrl.replace(/\/$/, "")}/${encodeURIComponent(s.pixelId)}/events?access_token=${encodeURIComponent(s.accessToken)}`;
      const res = await http(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      if (!res.ok) throw await failure("Meta", res);
      const answer = (await res.json().catch(() => null)) as { events_received?: number } | null;
      if (answer?.events_received !== 1) throw new Error(`Meta received ${answer?.events_received ?? "no"} events`);
    },
  };
}
