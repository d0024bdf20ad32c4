import { CURRENCIES } from "../../../contract/currencies.ts";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { minorToDecimal } from "../../products/money.ts";
import { createPaypalApi } from "./paypal/paypal.api.ts";
import { createPaypalSubscriptions } from "./paypal/paypal.subscriptions.ts";
import type { PaypalOrder, SaleRefund, WebhookEvent } from "./paypal/paypal.types.ts";
import {
  SALE_COMPLETED,
  SALE_REVERSAL,
  captureUpdate,
  isSubscriptionId,
  paymentEventUpdate,
  saleEventUpdate,
  subscriptionEventUpdate,
} from "./paypal/paypal.updates.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type NotificationHeaders, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { SIGNATURE_TOLERANCE_SECONDS } from "./signature.ts";

/**
 * Ours among the REST API's currency codes (developer.paypal.com/api/rest/reference/currency-codes): no Korean won, and
 * the rouble only for accounts inside Russia, which PayPal no longer serves.
 */
const PAYPAL_CURRENCIES = CURRENCIES.filter((c) => c !== "KRW" && c !== "RUB");

/** PayPal Orders v2 over its REST API: OAuth client credentials, create, capture, webhook verification by PayPal's API. */
export function createPaypalProvider(
  config: Config,
  log: Logger,
): PaymentProvider & { capture(providerRef: string, clientMetadataId?: string): Promise<PaymentUpdate | null> } {
  const api = createPaypalApi(config, log);
  const subscriptions = createPaypalSubscriptions(api);

  async function capture(providerRef: string, clientMetadataId?: string): Promise<PaymentUpdate | null> {
    // a plan's subscription has nothing to capture: PayPal charges it; the browser coming back asks how it stands
    if (isSubscriptionId(providerRef)) return subscriptions.querySubscription(providerRef);
    const headers: Record<string, string> = { "paypal-request-id": `capture-${providerRef}` };
    if (clientMetadataId) headers["paypal-client-metadata-id"] = clientMetadataId;
    const { status, data } = await api<PaypalOrder & { details?: { issue?: string }[] }>(
      "POST",
      `/v2/checkout/orders/${encodeURIComponent(providerRef)}/capture`,
      {},
      headers,
    );
    if (status === 422 && data.details?.some((d) => d.issue === "ORDER_ALREADY_CAPTURED")) return queryOrder(providerRef, false);
    if (status === 422 && data.details?.some((d) => d.issue === "INSTRUMENT_DECLINED")) {
      return {
        eventId: `capture:${providerRef}:INSTRUMENT_DECLINED`,
        type: "capture.instrument_declined",
        outcome: "failed",
        providerRef,
        failureReason: "declined",
        payload: data,
      };
    }
    if (status >= 400) throw new ProviderUnavailable(`paypal capture answered ${status}`);
    return captureUpdate(data, "capture");
  }

  async function queryOrder(providerRef: string, captureApproved: boolean): Promise<PaymentUpdate | null> {
    const { status, data } = await api<PaypalOrder>("GET", `/v2/checkout/orders/${encodeURIComponent(providerRef)}`);
    if (status >= 400) throw new ProviderUnavailable(`paypal order lookup answered ${status}`);
    // The buyer approved but the browser never came back to capture: capturing is what they asked for.
    if (data.status === "APPROVED" && captureApproved) return capture(providerRef);
    return captureUpdate(data, "query");
  }

  /** A webhook event PayPal says it sent: its transmission headers are there and fresh, and PayPal's API verifies the signature. */
  async function verifiedEvent(rawBody: Buffer, headers: NotificationHeaders): Promise<WebhookEvent> {
    const h = (name: string) => headerValue(headers, name);
    const transmission = {
      auth_algo: h("paypal-auth-algo"),
      cert_url: h("paypal-cert-url"),
      transmission_id: h("paypal-transmission-id"),
      transmission_sig: h("paypal-transmission-sig"),
      transmission_time: h("paypal-transmission-time"),
      webhook_id: config.PAYPAL_WEBHOOK_ID,
    };
    if (Object.values(transmission).some((v) => !v)) throw new InvalidNotification("paypal transmission headers missing");
    const sentAt = Date.parse(transmission.transmission_time!);
    if (!Number.isFinite(sentAt) || Math.abs(Date.now() - sentAt) > SIGNATURE_TOLERANCE_SECONDS * 1000)
      throw new InvalidNotification("paypal notification is stale");
    let event: WebhookEvent;
    try {
      event = JSON.parse(rawBody.toString("utf8")) as WebhookEvent;
    } catch {
      throw new InvalidNotification("paypal notification is not JSON");
    }
    // The event goes back byte for byte: PayPal checks the signature over the body it sent.
    const verifyBody = `${JSON.stringify(transmission).slice(0, -1)},"webhook_event":${rawBody.toString("utf8")}}`;
    const { status, data } = await api<{ verification_status?: string }>("POST", "/v1/notifications/verify-webhook-signature", verifyBody);
    if (status >= 400 || data.verification_status !== "SUCCESS") throw new InvalidNotification("paypal says the signature is not valid");
    return event;
  }

  return {
    name: "paypal",
    available: () => Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET && config.PAYPAL_WEBHOOK_ID),
    methods: () => ["checkout"],
    currencies: () => PAYPAL_CURRENCIES,
    capture,

    async createCheckout(req) {
      if (req.renewEveryDays) return subscriptions.subscribe(req, req.renewEveryDays);
      const amount = { currency_code: req.currency, value: minorToDecimal(req.amountMinor, req.currency) };
      const { status, data } = await api<PaypalOrder>(
        "POST",
        "/v2/checkout/orders",
        {
          intent: "CAPTURE",
          purchase_units: [{ reference_id: req.orderNo, custom_id: req.orderNo, invoice_id: req.orderNo, description: req.description.slice(0, 127), amount }],
          payment_source: {
            paypal: {
              experience_context: { return_url: req.returnUrl, cancel_url: req.cancelUrl, user_action: "PAY_NOW", shipping_preference: "NO_SHIPPING" },
            },
          },
        },
        { "paypal-request-id": `create-${req.orderNo}` },
      );
      const approve = data.links?.find((l) => l.rel === "payer-action" || l.rel === "approve")?.href;
      if (status >= 400 || !data.id || !approve) throw new ProviderUnavailable(`paypal order create answered ${status}`);
      return { providerRef: data.id, payUrl: approve };
    },

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      const event = await verifiedEvent(rawBody, headers);
      if (event.event_type.startsWith("BILLING.SUBSCRIPTION.")) return subscriptionEventUpdate(event);
      if (event.event_type === SALE_COMPLETED) return saleEventUpdate(event);
      const saleReversed = SALE_REVERSAL[event.event_type];
      if (saleReversed)
        return {
          eventId: event.id,
          type: event.event_type,
          outcome: null,
          ...(await subscriptions.saleReversal(saleReversed, event.resource as unknown as SaleRefund)),
          payload: event,
        };
      return paymentEventUpdate(event);
    },

    queryPayment: (providerRef) => (isSubscriptionId(providerRef) ? subscriptions.querySubscription(providerRef) : queryOrder(providerRef, true)),

    renews: () => true,

    cancelSubscription: (subscriptionRef) => subscriptions.cancel(subscriptionRef),

    async refund(providerRef, orderNo, paymentRef) {
      // a plan order was paid by the subscription's first sale: that sale is what goes back (decision 219)
      if (isSubscriptionId(providerRef)) return subscriptions.refundSale(paymentRef, orderNo);
      const update = await queryOrder(providerRef, false);
      const captureId = (update?.payload as PaypalOrder | undefined)?.purchase_units?.[0]?.payments?.captures?.[0]?.id;
      if (!captureId) throw new ProviderUnavailable("paypal order has no capture to refund");
      const { status } = await api(
        "POST",
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {},
        { "paypal-request-id": `refund-${providerRef}` },
      );
      if (status >= 400) throw new ProviderUnavailable(`paypal refund answered ${status}`);
    },
  };
}

export type PaypalProvider = ReturnType<typeof createPaypalProvider>;
