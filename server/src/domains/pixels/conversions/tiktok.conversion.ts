import type { ConversionSender } from "./sender.ts";
import { failure, sha256 } from "./sender.ts";

/**
 * TikTok Events API 1.3: POST event/track with the Access-Token header, one `CompletePayment` web event whose
 * `event_id` is the browser pixel's, so TikTok de-duplicates. TikTok answers HTTP 200 with `code` 0 on success.
 */
export function tiktokConversions(trackUrl: string): ConversionSender<"tiktok"> {
  return {
    vendor: "tiktok",
    applies: () => true,
    async send(c, s, http) {
      const ctx = c.context;
      const user: Record<string, unknown> = {};
      if (ctx.ttclid) user.ttclid = ctx.ttclid;
      if (ctx.device_id) user.external_id = sha256(ctx.device_id);
      if (ctx.client_ip) user.ip = ctx.client_ip;
      if (ctx.user_agent) user.user_agent = ctx.user_agent;
      const body = {
        event_source: "web",
        event_source_id: s.pixelCode,
        ...(s.testEventCode ? { test_event_code: s.testEventCode } : {}),
        data: [
          {
            event: "CompletePayment",
            event_time: Math.floor(c.occurredAt.getTime() / 1000),
            event_id: c.eventId,
            user,
            properties: { currency: c.currency, value: Number(c.value), order_id: String(c.orderId), content_type: "product" },
            ...(ctx.page_url ? { page: { url: ctx.page_url } } : {}),
          },
        ],
      };
      const res = await http(trackUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "Access-Token": s.accessToken },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw await failure("TikTok", res);
      const answer = (await res.json().catch(() => null)) as { code?: number; message?: string } | null;
      if (answer?.code !== 0) throw new Error(`TikTok refused: ${answer?.code ?? "?"} ${answer?.message ?? ""}`.trim());
    },
  };
}
