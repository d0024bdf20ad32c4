import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { decimalToMinor, minorToDecimal } from "../../products/money.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { SIGNATURE_TOLERANCE_SECONDS } from "./signature.ts";

const LIVE_API = "https://api-m.paypal.com";
const SANDBOX_API = "https://api-m.sandbox.paypal.com";
const REQUEST_TIMEOUT_MS = 20_000;
/** Renew the OAuth token this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

interface Money {
  currency_code: string;
  value: string;
}
interface Capture {
  id: string;
  status: string;
  amount?: Money;
  custom_id?: string;
  supplementary_data?: { related_ids?: { order_id?: string } };
}
interface PaypalOrder {
  id: string;
  status: string;
  links?: { href: string; rel: string }[];
  purchase_units?: { reference_id?: string; custom_id?: string; payments?: { captures?: Capture[] } }[];
}
/** A refund of a capture (v2 payments): also the resource of PAYMENT.CAPTURE.REVERSED. */
interface Refund {
  id: string;
  status?: string;
  amount?: Money;
  custom_id?: string;
  seller_payable_breakdown?: { total_refunded_amount?: Money };
  /** `up` points at the refunded capture. */
  links?: { href: string; rel: string }[];
}
interface WebhookEvent {
  id: string;
  event_type: string;
  /** A capture for PAYMENT.CAPTURE.COMPLETED/DENIED/DECLINED, a refund for REFUNDED/REVERSED, the PayPal order for CHECKOUT.ORDER.*. */
  resource?: Capture & Partial<PaypalOrder> & Partial<Refund>;
}

/** The buyer approved on PayPal; the payment still has to be captured (Reverie asks PayPal when this arrives). */
const ORDER_APPROVED = "CHECKOUT.ORDER.APPROVED";

const CAPTURE_OUTCOME: Record<string, PaymentOutcome> = { COMPLETED: "paid", DECLINED: "failed", FAILED: "failed" };
/** Money returned of a capture (decision 208): the merchant refunded it, or PayPal reversed it (a chargeback or a buyer's claim). */
const WEBHOOK_REVERSAL: Record<string, "refund" | "chargeback"> = { "PAYMENT.CAPTURE.REFUNDED": "refund", "PAYMENT.CAPTURE.REVERSED": "chargeback" };

/** The capture a refund returns money of: the id at the end of its `up` link. */
function refundedCapture(refund: Partial<Refund>): string | undefined {
  const up = refund.links?.find((l) => l.rel === "up")?.href;
  return up ? /\/v2\/payments\/captures\/([^/?]+)/.exec(up)?.[1] : undefined;
}

function reversalUpdate(kind: "refund" | "chargeback", refund: Partial<Refund>): Pick<PaymentUpdate, "paymentRef" | "reversal"> {
  const total = refund.seller_payable_breakdown?.total_refunded_amount;
  return {
    paymentRef: refundedCapture(refund),
    reversal: { kind, ...(refund.amount ? { amountMinor: decimalToMinor(refund.amount.value, refund.amount.currency_code), currency: refund.amount.currency_code } : {}), ...(total ? { totalMinor: decimalToMinor(total.value, total.currency_code) } : {}) },
  };
}

const WEBHOOK_OUTCOME: Record<string, PaymentOutcome> = {
  "PAYMENT.CAPTURE.COMPLETED": "paid",
  "PAYMENT.CAPTURE.DENIED": "failed",
  "PAYMENT.CAPTURE.DECLINED": "failed",
};

/** PayPal's API base: PAYPAL_API_BASE, else live in production and PayPal's sandbox elsewhere. */
export function paypalApiBase(config: Config): string {
  return (config.PAYPAL_API_BASE ?? (config.NODE_ENV === "production" ? LIVE_API : SANDBOX_API)).replace(/\/$/, "");
}

/** The PayPal capture of a PayPal order, with what it says about our order. */
function captureUpdate(order: PaypalOrder, via: string): PaymentUpdate | null {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const outcome = capture ? CAPTURE_OUTCOME[capture.status] : order.status === "VOIDED" ? "failed" : undefined;
  if (!outcome) return null;
  return {
    eventId: `${via}:${capture?.id ?? order.id}:${capture?.status ?? order.status}`,
    type: `${via}.${(capture?.status ?? order.status).toLowerCase()}`,
    outcome,
    providerRef: order.id,
    ...(capture ? { paymentRef: capture.id } : {}),
    orderNo: capture?.custom_id ?? unit?.custom_id ?? unit?.reference_id,
    ...moneyFacts(capture?.amount),
    failureReason: outcome === "failed" ? "declined" : undefined,
    payload: order,
  };
}

function moneyFacts(amount: Money | undefined): { amountMinor?: number; currency?: string } {
  return amount ? { amountMinor: decimalToMinor(amount.value, amount.currency_code), currency: amount.currency_code } : {};
}

/** PayPal Orders v2 over its REST API: OAuth client credentials, create, capture, webhook verification by PayPal's API. */
export function createPaypalProvider(config: Config, log: Logger): PaymentProvider & { capture(providerRef: string, clientMetadataId?: string): Promise<PaymentUpdate | null> } {
  const base = paypalApiBase(config);
  let token: { value: string; expiresAt: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now()) return token.value;
    const basic = Buffer.from(`${config.PAYPAL_CLIENT_ID}:${config.PAYPAL_CLIENT_SECRET}`).toString("base64");
    const res = await send("/v1/oauth2/token", { method: "POST", headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!res.ok || !body.access_token) throw new ProviderUnavailable(`paypal token request answered ${res.status}`);
    token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 0) * 1000 - TOKEN_MARGIN_MS };
    return token.value;
  }

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(`${base}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      log.warn({ err, path }, "paypal unreachable");
      throw new ProviderUnavailable(`paypal ${path} unreachable`);
    }
  }

  /** An authenticated JSON call; `body` may be a ready string so that bytes PayPal must verify are not re-serialised. */
  async function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: T }> {
    const res = await send(path, {
      method,
      headers: { authorization: `Bearer ${await accessToken()}`, "content-type": "application/json", prefer: "return=representation", ...headers },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const data = (await res.json().catch(() => ({}))) as T;
    if (res.status === 401) token = undefined;
    if (res.status >= 500 || res.status === 401) throw new ProviderUnavailable(`paypal ${method} ${path} answered ${res.status}`);
    return { status: res.status, data };
  }

  async function capture(providerRef: string, clientMetadataId?: string): Promise<PaymentUpdate | null> {
    const headers: Record<string, string> = { "paypal-request-id": `capture-${providerRef}` };
    if (clientMetadataId) headers["paypal-client-metadata-id"] = clientMetadataId;
    const { status, data } = await api<PaypalOrder & { details?: { issue?: string }[] }>("POST", `/v2/checkout/orders/${encodeURIComponent(providerRef)}/capture`, {}, headers);
    if (status === 422 && data.details?.some((d) => d.issue === "ORDER_ALREADY_CAPTURED")) return queryOrder(providerRef, false);
    if (status === 422 && data.details?.some((d) => d.issue === "INSTRUMENT_DECLINED")) {
      return { eventId: `capture:${providerRef}:INSTRUMENT_DECLINED`, type: "capture.instrument_declined", outcome: "failed", providerRef, failureReason: "declined", payload: data };
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

  return {
    name: "paypal",
    available: () => Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET && config.PAYPAL_WEBHOOK_ID),
    methods: () => ["checkout"],
    capture,

    async createCheckout(req) {
      const amount = { currency_code: req.currency, value: minorToDecimal(req.amountMinor, req.currency) };
      const { status, data } = await api<PaypalOrder>(
        "POST",
        "/v2/checkout/orders",
        {
          intent: "CAPTURE",
          purchase_units: [{ reference_id: req.orderNo, custom_id: req.orderNo, invoice_id: req.orderNo, description: req.description.slice(0, 127), amount }],
          payment_source: {
            paypal: { experience_context: { return_url: req.returnUrl, cancel_url: req.cancelUrl, user_action: "PAY_NOW", shipping_preference: "NO_SHIPPING" } },
          },
        },
        { "paypal-request-id": `create-${req.orderNo}` },
      );
      const approve = data.links?.find((l) => l.rel === "payer-action" || l.rel === "approve")?.href;
      if (status >= 400 || !data.id || !approve) throw new ProviderUnavailable(`paypal order create answered ${status}`);
      return { providerRef: data.id, payUrl: approve };
    },

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
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
      if (!Number.isFinite(sentAt) || Math.abs(Date.now() - sentAt) > SIGNATURE_TOLERANCE_SECONDS * 1000) throw new InvalidNotification("paypal notification is stale");
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
      const outcome = WEBHOOK_OUTCOME[event.event_type] ?? null;
      const r = event.resource;
      const approvedOrder = event.event_type === ORDER_APPROVED ? r?.purchase_units?.[0] : undefined;
      const reversal = WEBHOOK_REVERSAL[event.event_type];
      const captureEvent = event.event_type.startsWith("PAYMENT.CAPTURE.") && !reversal;
      return {
        ...(captureEvent && r?.id ? { paymentRef: r.id } : {}),
        ...(reversal && r ? reversalUpdate(reversal, r) : {}),
        eventId: event.id,
        type: event.event_type,
        outcome,
        providerRef: approvedOrder ? r?.id : r?.supplementary_data?.related_ids?.order_id,
        orderNo: approvedOrder ? (approvedOrder.custom_id ?? approvedOrder.reference_id) : r?.custom_id,
        ...moneyFacts(r?.amount),
        failureReason: outcome === "failed" ? "declined" : undefined,
        payload: event,
      };
    },

    queryPayment: (providerRef) => queryOrder(providerRef, true),

    async refund(providerRef) {
      const update = await queryOrder(providerRef, false);
      const captureId = (update?.payload as PaypalOrder | undefined)?.purchase_units?.[0]?.payments?.captures?.[0]?.id;
      if (!captureId) throw new ProviderUnavailable("paypal order has no capture to refund");
      const { status } = await api("POST", `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {}, { "paypal-request-id": `refund-${providerRef}` });
      if (status >= 400) throw new ProviderUnavailable(`paypal refund answered ${status}`);
    },
  };
}

export type PaypalProvider = ReturnType<typeof createPaypalProvider>;
