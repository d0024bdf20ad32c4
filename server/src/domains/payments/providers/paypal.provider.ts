import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { decimalToMinor, minorToDecimal } from "../../products/money.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type CheckoutRequest, type CheckoutSession, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
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
  /** When PayPal created the event: the date of a subscription's state change where the resource carries none. */
  create_time?: string;
  /**
   * A capture for PAYMENT.CAPTURE.COMPLETED/DENIED/DECLINED, a refund for REFUNDED/REVERSED, the PayPal order for
   * CHECKOUT.ORDER.*, a subscription for BILLING.SUBSCRIPTION.*, a sale for PAYMENT.SALE.*.
   */
  resource?: Capture & Partial<PaypalOrder> & Partial<Refund>;
}

/** A Subscriptions API subscription (v1/billing): the fields Reverie reads. */
interface Subscription {
  id: string;
  status: string;
  status_update_time?: string;
  custom_id?: string;
  plan_id?: string;
  links?: { href: string; rel: string }[];
  billing_info?: { last_payment?: { amount?: Money; time?: string }; next_billing_time?: string; failed_payments_count?: number };
}
/** A v1 sale: what PAYMENT.SALE.COMPLETED carries for each charge of a subscription. */
interface Sale {
  id: string;
  state?: string;
  amount?: { total: string; currency: string };
  billing_agreement_id?: string;
}
/** A v1 refund of a sale: what PAYMENT.SALE.REFUNDED and PAYMENT.SALE.REVERSED carry (the sale by id only). */
interface SaleRefund {
  id: string;
  sale_id?: string;
  amount?: { total: string; currency: string };
  total_refunded_amount?: { value: string; currency: string };
}

/**
 * Subscription events (decision 209). ACTIVATED: the buyer approved and the first period is being charged (the sale
 * pays the order). CANCELLED: no more renewals, what was paid runs out. SUSPENDED: PayPal stopped billing after the
 * plan's `payment_failure_threshold` failed attempts — Reverie never suspends, so that is PayPal giving up; EXPIRED:
 * the subscription ran out. Both end the membership. PAYMENT.FAILED changes nothing: PayPal retries. RE-ACTIVATED (and
 * ACTIVATED after a suspension): the merchant re-activated it, the membership runs again (decision 219).
 */
const SUBSCRIPTION_STATE: Record<string, "active" | "cancel_at_period_end" | "ended"> = {
  "BILLING.SUBSCRIPTION.ACTIVATED": "active",
  "BILLING.SUBSCRIPTION.RE-ACTIVATED": "active",
  "BILLING.SUBSCRIPTION.CANCELLED": "cancel_at_period_end",
  "BILLING.SUBSCRIPTION.SUSPENDED": "ended",
  "BILLING.SUBSCRIPTION.EXPIRED": "ended",
};
const SALE_COMPLETED = "PAYMENT.SALE.COMPLETED";
/** Money of a subscription's sale returned: the merchant refunded it, or PayPal reversed it (decision 219). */
const SALE_REVERSAL: Record<string, "refund" | "chargeback"> = { "PAYMENT.SALE.REFUNDED": "refund", "PAYMENT.SALE.REVERSED": "chargeback" };
/** PayPal subscription ids ("I-BW452GLLEP1G"); PayPal order ids have no dash. A plan order's reference is one. */
const isSubscriptionId = (ref: string) => ref.startsWith("I-");
/** How many failed charges of a period PayPal tries before it suspends the subscription (plan payment_preferences). */
const PAYMENT_FAILURE_THRESHOLD = 3;

const date = (iso: string | undefined) => (iso && Number.isFinite(Date.parse(iso)) ? new Date(iso) : undefined);

/** A subscription charge: the first pays the order, each later one renews a period (named by the sale, once). */
function saleUpdate(sale: Sale): Pick<PaymentUpdate, "outcome" | "providerRef" | "paymentRef" | "amountMinor" | "currency" | "subscription"> | null {
  if (!sale.billing_agreement_id || sale.state !== "completed" || !sale.amount) return null;
  return {
    outcome: "paid",
    providerRef: sale.billing_agreement_id,
    paymentRef: sale.id,
    amountMinor: decimalToMinor(sale.amount.total, sale.amount.currency),
    currency: sale.amount.currency,
    subscription: { ref: sale.billing_agreement_id, renewalPeriod: sale.id },
  };
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
    // a plan's subscription has nothing to capture: PayPal charges it; the browser coming back asks how it stands
    if (isSubscriptionId(providerRef)) return querySubscription(providerRef);
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

  /**
   * The billing plan for a price and period (a catalog product + a plan, created once per price, period and process;
   * PayPal-Request-Id makes a repeat of the same creation answer the same plan).
   */
  const plans = new Map<string, Promise<string>>();
  function planFor(req: CheckoutRequest, days: number): Promise<string> {
    const key = `${req.currency}-${req.amountMinor}-${days}d`;
    let plan = plans.get(key);
    if (!plan) {
      plan = (async () => {
        const product = await api<{ id?: string }>("POST", "/v1/catalogs/products", { name: req.description.slice(0, 127), type: "SERVICE", category: "SOFTWARE" }, { "paypal-request-id": `product-${key}` });
        if (product.status >= 400 || !product.data.id) throw new ProviderUnavailable(`paypal catalog product answered ${product.status}`);
        const created = await api<{ id?: string; status?: string }>(
          "POST",
          "/v1/billing/plans",
          {
            product_id: product.data.id,
            name: req.description.slice(0, 127),
            status: "ACTIVE",
            billing_cycles: [{ frequency: { interval_unit: "DAY", interval_count: days }, tenure_type: "REGULAR", sequence: 1, total_cycles: 0, pricing_scheme: { fixed_price: { value: minorToDecimal(req.amountMinor, req.currency), currency_code: req.currency } } }],
            payment_preferences: { auto_bill_outstanding: true, setup_fee_failure_action: "CANCEL", payment_failure_threshold: PAYMENT_FAILURE_THRESHOLD },
          },
          { "paypal-request-id": `plan-${key}` },
        );
        if (created.status >= 400 || !created.data.id) throw new ProviderUnavailable(`paypal billing plan answered ${created.status}`);
        return created.data.id;
      })();
      // a failed creation is not remembered: the next checkout tries again
      plan.catch(() => plans.delete(key));
      plans.set(key, plan);
    }
    return plan;
  }

  /** A plan sold as a PayPal subscription: its first charge pays the order, later ones renew (decision 209). */
  async function subscribe(req: CheckoutRequest, days: number): Promise<CheckoutSession> {
    const planId = await planFor(req, days);
    const { status, data } = await api<Subscription>(
      "POST",
      "/v1/billing/subscriptions",
      { plan_id: planId, custom_id: req.orderNo, application_context: { return_url: req.returnUrl, cancel_url: req.cancelUrl, user_action: "SUBSCRIBE_NOW", shipping_preference: "NO_SHIPPING" } },
      { "paypal-request-id": `subscribe-${req.orderNo}` },
    );
    const approve = data.links?.find((l) => l.rel === "approve")?.href;
    if (status >= 400 || !data.id || !approve) throw new ProviderUnavailable(`paypal subscription create answered ${status}`);
    return { providerRef: data.id, payUrl: approve };
  }

  /**
   * A refunded or reversed sale. Its resource names the sale only, so the sale is looked up (`GET /v1/payments/sale/{id}`,
   * with our credentials) for the subscription it charged: the first sale is the plan order's payment, any other a
   * renewal (orders tells them apart by the order's payment id). PAYMENT.SALE.REVERSED carries a negative amount.
   */
  async function saleReversal(kind: "refund" | "chargeback", refund: SaleRefund): Promise<Partial<PaymentUpdate>> {
    if (!refund.sale_id) return {};
    const { status, data } = await api<Sale>("GET", `/v1/payments/sale/${encodeURIComponent(refund.sale_id)}`);
    if (status === 404) return { paymentRef: refund.sale_id };
    if (status >= 400) throw new ProviderUnavailable(`paypal sale lookup answered ${status}`);
    const amount = refund.amount ? decimalToMinor(refund.amount.total.replace(/^-/, ""), refund.amount.currency) : undefined;
    const total = refund.total_refunded_amount ? decimalToMinor(refund.total_refunded_amount.value, refund.total_refunded_amount.currency) : undefined;
    return {
      paymentRef: refund.sale_id,
      ...(data.billing_agreement_id ? { providerRef: data.billing_agreement_id, subscription: { ref: data.billing_agreement_id, renewalPeriod: refund.sale_id } } : {}),
      reversal: { kind, ...(amount !== undefined ? { amountMinor: amount, currency: refund.amount!.currency } : {}), ...(total !== undefined ? { totalMinor: total } : {}) },
    };
  }

  /** The full refund of a subscription's sale (v1: an empty body refunds all of it); already refunded counts as done. */
  async function refundSale(saleId: string | null | undefined, orderNo: string): Promise<void> {
    // the order was paid by polling and the first sale's event has not come yet: PayPal's dashboard refunds it
    if (!saleId) throw new ProviderUnavailable("the sale that paid this plan order is not known yet");
    const { status, data } = await api<{ name?: string }>("POST", `/v1/payments/sale/${encodeURIComponent(saleId)}/refund`, {}, { "paypal-request-id": `refund-${orderNo}` });
    if (status === 400 && data.name === "TRANSACTION_ALREADY_REFUNDED") return;
    if (status >= 400) throw new ProviderUnavailable(`paypal sale refund answered ${status}`);
  }

  /** Polling a plan order: the subscription is active and its first period was charged. */
  async function querySubscription(id: string): Promise<PaymentUpdate | null> {
    const { status, data } = await api<Subscription>("GET", `/v1/billing/subscriptions/${encodeURIComponent(id)}`);
    if (status >= 400) throw new ProviderUnavailable(`paypal subscription lookup answered ${status}`);
    const paid = data.billing_info?.last_payment?.amount;
    if (data.status !== "ACTIVE" || !paid) return null;
    return {
      eventId: `query:${id}:ACTIVE`,
      type: "query.subscription.active",
      outcome: "paid",
      providerRef: id,
      orderNo: data.custom_id,
      ...moneyFacts(paid),
      subscription: { ref: id, currentPeriodEnd: date(data.billing_info?.next_billing_time) },
      payload: data,
    };
  }

  return {
    name: "paypal",
    available: () => Boolean(config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET && config.PAYPAL_WEBHOOK_ID),
    methods: () => ["checkout"],
    capture,

    async createCheckout(req) {
      if (req.renewEveryDays) return subscribe(req, req.renewEveryDays);
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
      const subscriptionState = SUBSCRIPTION_STATE[event.event_type];
      if (event.event_type.startsWith("BILLING.SUBSCRIPTION.")) {
        const sub = r as unknown as Subscription | undefined;
        return {
          eventId: event.id,
          type: event.event_type,
          outcome: null,
          providerRef: sub?.id,
          orderNo: sub?.custom_id,
          ...(sub?.id && subscriptionState ? { subscription: { ref: sub.id, state: subscriptionState, currentPeriodEnd: date(sub.billing_info?.next_billing_time), stateChangedAt: date(sub.status_update_time) ?? date(event.create_time) } } : {}),
          payload: event,
        };
      }
      if (event.event_type === SALE_COMPLETED) {
        return { eventId: event.id, type: event.event_type, outcome: null, ...saleUpdate(r as unknown as Sale), payload: event };
      }
      const saleReversed = SALE_REVERSAL[event.event_type];
      if (saleReversed) return { eventId: event.id, type: event.event_type, outcome: null, ...(await saleReversal(saleReversed, r as unknown as SaleRefund)), payload: event };
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

    queryPayment: (providerRef) => (isSubscriptionId(providerRef) ? querySubscription(providerRef) : queryOrder(providerRef, true)),

    renews: () => true,

    async cancelSubscription(subscriptionRef) {
      const { status, data } = await api<{ details?: { issue?: string }[] }>("POST", `/v1/billing/subscriptions/${encodeURIComponent(subscriptionRef)}/cancel`, { reason: "Cancelled by the member in the app" });
      // already cancelled (a double click, or the member cancelled on PayPal too): the outcome wanted
      if (status === 422 && data.details?.some((d) => d.issue === "SUBSCRIPTION_STATUS_INVALID")) return;
      if (status >= 400) throw new ProviderUnavailable(`paypal subscription cancel answered ${status}`);
    },

    async refund(providerRef, orderNo, paymentRef) {
      // a plan order was paid by the subscription's first sale: that sale is what goes back (decision 219)
      if (isSubscriptionId(providerRef)) return refundSale(paymentRef, orderNo);
      const update = await queryOrder(providerRef, false);
      const captureId = (update?.payload as PaypalOrder | undefined)?.purchase_units?.[0]?.payments?.captures?.[0]?.id;
      if (!captureId) throw new ProviderUnavailable("paypal order has no capture to refund");
      const { status } = await api("POST", `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, {}, { "paypal-request-id": `refund-${providerRef}` });
      if (status >= 400) throw new ProviderUnavailable(`paypal refund answered ${status}`);
    },
  };
}

export type PaypalProvider = ReturnType<typeof createPaypalProvider>;
