import type { ConversionSender } from "./sender.ts";
import { failure } from "./sender.ts";

/** "2026-11-23 20:01:02+00:00": the date-time format uploadClickConversions requires. */
function adsDateTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace("T", " ")}+00:00`;
}

/** google.rpc.Status with GoogleAdsFailure details, as uploadClickConversions answers a refused row. */
interface PartialFailure {
  message?: string;
  details?: Array<{ errors?: Array<{ errorCode?: { conversionUploadError?: string } }> }>;
}

/**
 * Our one conversion was refused only because Google already holds its order id: an earlier try reached Google and
 * its answer was lost (a time-out, or a crash before the row was marked sent). That is delivered, not failed.
 */
function alreadyUploaded(failure: PartialFailure): boolean {
  const errors = (failure.details ?? []).flatMap((d) => d.errors ?? []);
  return errors.length > 0 && errors.every((e) => e.errorCode?.conversionUploadError === "ORDER_ID_ALREADY_IN_USE");
}

/**
 * Google Ads offline (click) conversions: an OAuth access token from the channel's refresh token, then
 * customers/{id}:uploadClickConversions with the click's gclid. The purchase's event id is the conversion's
 * `orderId`, which Google uses to drop a second upload of the same conversion (and the browser tag's
 * transaction_id). Without a gclid Google cannot attribute the purchase, so nothing is queued.
 */
export function googleAdsConversions(apiUrl: string, tokenUrl: string): ConversionSender<"google_ads"> {
  return {
    vendor: "google_ads",
    applies: (ctx) => Boolean(ctx.gclid),
    async send(c, s, http) {
      const tokenRes = await http(tokenUrl, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          client_id: s.clientId,
          client_secret: s.clientSecret,
          refresh_token: s.refreshToken,
        }).toString(),
      });
      if (!tokenRes.ok) throw await failure("Google OAuth", tokenRes);
      const { access_token } = (await tokenRes.json()) as { access_token?: string };
      if (!access_token) throw new Error("Google OAuth gave no access token");
      const body = {
        conversions: [
          {
            gclid: c.context.gclid,
            conversionAction: `customers/${s.customerId}/conversionActions/${s.conversionActionId}`,
            conversionDateTime: adsDateTime(c.occurredAt),
            conversionValue: Number(c.value),
            currencyCode: c.currency,
            orderId: c.eventId,
          },
        ],
        partialFailure: true,
      };
      const headers: Record<string, string> = {
        "content-type": "application/json",
        authorization: `Bearer ${access_token}`,
        "developer-token": s.developerToken,
      };
      if (s.loginCustomerId) headers["login-customer-id"] = s.loginCustomerId;
      const res = await http(`${apiUrl.replace(/\/$/, "")}/customers/${s.customerId}:uploadClickConversions`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      if (!res.ok) throw await failure("Google Ads", res);
      const answer = (await res.json().catch(() => null)) as { partialFailureError?: PartialFailure } | null;
      if (answer?.partialFailureError && !alreadyUploaded(answer.partialFailureError))
        throw new Error(`Google Ads refused: ${answer.partialFailureError.message ?? "partial failure"}`);
    },
  };
}
