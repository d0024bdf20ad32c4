import { CURRENCIES } from "../../../contract/currencies.ts";
import type Stripe from "stripe";
import type { Logger } from "pino";
import type { Config } from "../../../config.ts";
import { InvalidNotification, ProviderUnavailable, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate } from "./provider.ts";
import { SIGNATURE_TOLERANCE_SECONDS } from "./signature.ts";

/** Stripe accepts a Checkout Session expiry between 30 minutes and 24 hours ahead. */
const MIN_SESSION_SECONDS = 31 * 60;
const MAX_SESSION_SECONDS = 24 * 3600 - 60;

/** Only these events change orders; everything else is acknowledged and stored. */
function outcomeOf(event: Stripe.Event): PaymentOutcome | null {
  if (event.type === "checkout.session.completed") {
    const s = event.data.object;
    // A delayed method (bank debit) completes the session unpaid; async_payment_succeeded follows.
    return s.payment_status === "paid" || s.payment_status === "no_payment_required" ? "paid" : null;
  }
  if (event.type === "checkout.session.async_payment_succeeded") return "paid";
  if (event.type === "checkout.session.async_payment_failed") return "failed";
  return null;
}

function isCheckoutEvent(event: Stripe.Event): event is Stripe.Event & { data: { object: Stripe.Checkout.Session } } {
  return event.type.startsWith("checkout.session.");
}

/** The id in a Stripe field that holds an id, or the object when expanded. */
function idOf(v: string | { id: string }): string;
function idOf(v: string | { id: string } | null | undefined): string | undefined;
function idOf(v: string | { id: string } | null | undefined): string | undefined {
  return typeof v === "string" ? v : v?.id;
}

function sessionFacts(s: Stripe.Checkout.Session) {
  const subscription = idOf(s.subscription);
  const intent = idOf(s.payment_intent);
  return {
    providerRef: s.id,
    // refunds and disputes name the payment intent, not the session
    ...(intent ? { paymentRef: intent } : {}),
    orderNo: s.client_reference_id ?? s.metadata?.order_no ?? undefined,
    amountMinor: s.amount_total ?? undefined,
    currency: s.currency?.toUpperCase(),
    ...(subscription ? { subscription: { ref: subscription } } : {}),
  };
}

const seconds = (t: number | undefined | null) => (t ? new Date(t * 1000) : undefined);

/** Subscription events: a renewal invoice paid, or the subscription changed or ended (memberships, decision 115). */
function subscriptionFacts(event: Stripe.Event): Pick<PaymentUpdate, "orderNo" | "amountMinor" | "currency" | "subscription"> | null {
  if (event.type === "invoice.paid") {
    const invoice = event.data.object;
    const details = invoice.parent?.subscription_details;
    // The first period's invoice (subscription_create) is the checkout's payment, credited with the order.
    if (!details || invoice.billing_reason !== "subscription_cycle") return null;
    const ref = idOf(details.subscription);
    const period = invoice.lines.data[0]?.period;
    if (!period) return null;
    return {
      orderNo: details.metadata?.order_no,
      amountMinor: invoice.amount_paid,
      currency: invoice.currency.toUpperCase(),
      subscription: { ref, renewalPeriod: String(period.start), currentPeriodEnd: seconds(period.end) },
    };
  }
  if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted") {
    const sub = event.data.object;
    const state =
      event.type === "customer.subscription.deleted" || sub.status === "canceled" ? "ended" : sub.cancel_at_period_end ? "cancel_at_period_end" : "active";
    return { orderNo: sub.metadata?.order_no, subscription: { ref: sub.id, state, currentPeriodEnd: seconds(sub.items.data[0]?.current_period_end) } };
  }
  return null;
}

/**
 * Money returned of a payment (decision 208): `charge.refunded` (amount_refunded is everything refunded so far) and
 * `charge.dispute.created` (Stripe takes the disputed amount from the balance when the dispute opens). Both name the
 * payment intent, which the order learnt from its session.
 */
function reversalFacts(event: Stripe.Event): Pick<PaymentUpdate, "paymentRef" | "reversal"> | null {
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    const intent = idOf(charge.payment_intent);
    if (!intent) return null;
    return { paymentRef: intent, reversal: { kind: "refund", totalMinor: charge.amount_refunded, currency: charge.currency.toUpperCase() } };
  }
  if (event.type === "charge.dispute.created") {
    const dispute = event.data.object;
    const intent = idOf(dispute.payment_intent);
    if (!intent) return null;
    return { paymentRef: intent, reversal: { kind: "chargeback", amountMinor: dispute.amount, currency: dispute.currency.toUpperCase() } };
  }
  return null;
}

/** Stripe Checkout through the official SDK. STRIPE_API_URL points the SDK at a local fake in tests. */
export function createStripeProvider(config: Config, log: Logger): PaymentProvider {
  const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined;
  const configured = Boolean(config.STRIPE_SECRET_KEY);
  // The SDK is large; loading it only when Stripe is configured keeps it out of every start-up that doesn't use it.
  let stripe: Promise<Stripe> | undefined;

  function client(): Promise<Stripe> {
    const key = config.STRIPE_SECRET_KEY;
    if (!key) return Promise.reject(new ProviderUnavailable("Stripe is not configured"));
    stripe ??= import("stripe").then(
      ({ default: StripeSdk }) =>
        new StripeSdk(key, {
          maxNetworkRetries: 1,
          timeout: 20_000,
          telemetry: false,
          ...(api ? { host: api.hostname, port: api.port, protocol: api.protocol === "http:" ? "http" : "https" } : {}),
        }),
    );
    return stripe;
  }

  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      log.warn({ err, what }, "stripe call failed");
      throw new ProviderUnavailable(`stripe ${what} failed`);
    }
  }

  return {
    name: "stripe",
    available: () => Boolean(configured && config.STRIPE_WEBHOOK_SECRET),
    methods: () => ["checkout"],
    // Checkout charges in 135+ presentment currencies (docs.stripe.com/currencies), all of ours
    currencies: () => CURRENCIES,

    async createCheckout(req) {
      const now = Math.floor(Date.now() / 1000);
      const wanted = Math.floor(req.expiresAt.getTime() / 1000);
      const recurring = req.renewEveryDays ? { interval: "day" as const, interval_count: req.renewEveryDays } : undefined;
      const session = await call("checkout.sessions.create", async () =>
        (await client()).checkout.sessions.create(
          {
            mode: recurring ? "subscription" : "payment",
            client_reference_id: req.orderNo,
            metadata: { order_no: req.orderNo },
            // renewal invoices carry the subscription's metadata: that is how a renewal finds its plan's order
            ...(recurring ? { subscription_data: { metadata: { order_no: req.orderNo } } } : {}),
            line_items: [
              {
                quantity: req.quantity,
                price_data: {
                  currency: req.currency.toLowerCase(),
                  unit_amount: req.unitAmountMinor,
                  product_data: { name: req.description },
                  ...(recurring ? { recurring } : {}),
                },
              },
            ],
            success_url: req.returnUrl,
            cancel_url: req.cancelUrl,
            expires_at: Math.min(Math.max(wanted, now + MIN_SESSION_SECONDS), now + MAX_SESSION_SECONDS),
          },
          { idempotencyKey: `checkout:${req.orderNo}` },
        ),
      );
      if (!session.url) throw new ProviderUnavailable("stripe returned a session without a url");
      return { providerRef: session.id, payUrl: session.url };
    },

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      const secret = config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new InvalidNotification("no Stripe webhook secret configured");
      let event: Stripe.Event;
      try {
        event = (await client()).webhooks.constructEvent(rawBody, headerValue(headers, "stripe-signature") ?? "", secret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (err) {
        throw new InvalidNotification((err as Error).message);
      }
      const outcome = outcomeOf(event);
      return {
        eventId: event.id,
        type: event.type,
        outcome,
        ...(isCheckoutEvent(event) ? sessionFacts(event.data.object) : (subscriptionFacts(event) ?? reversalFacts(event))),
        failureReason: outcome === "failed" ? "async_payment_failed" : undefined,
        payload: event,
      };
    },

    async queryPayment(providerRef): Promise<PaymentUpdate | null> {
      const s = await call("checkout.sessions.retrieve", async () => (await client()).checkout.sessions.retrieve(providerRef));
      if (s.payment_status !== "paid") return null;
      return { eventId: `query:${s.id}:paid`, type: "query.checkout.session.paid", outcome: "paid", ...sessionFacts(s), payload: s };
    },

    renews: () => true,

    async cancelSubscription(subscriptionRef, _orderNo, opts) {
      // A refunded plan order ends the subscription at once (DELETE); the member's cancel keeps what was paid.
      if (opts?.now) {
        await call("subscriptions.cancel", async () =>
          (await client()).subscriptions.cancel(subscriptionRef, {}, { idempotencyKey: `end:${subscriptionRef}` }),
        );
        return;
      }
      await call("subscriptions.update", async () =>
        (await client()).subscriptions.update(subscriptionRef, { cancel_at_period_end: true }, { idempotencyKey: `cancel:${subscriptionRef}` }),
      );
    },

    async refund(providerRef, orderNo, paymentRef) {
      const payment = paymentRef ? { payment_intent: paymentRef } : await paymentOfSession(providerRef);
      // one key per order: a retried or concurrent staff refund is answered with the first refund
      await call("refunds.create", async () => (await client()).refunds.create(payment, { idempotencyKey: `refund:${orderNo}` }));
    },
  };

  /**
   * What paid a checkout: a payment-mode session names its payment intent; a subscription-mode one (a plan) has none,
   * its money is the payment of the subscription's first invoice (`session.invoice`), which since API version
   * 2025-03-31.basil the invoice no longer names — its paid `invoice_payments` entry does (a payment intent, or a
   * charge for a payment made without one). Decision 225.
   */
  async function paymentOfSession(providerRef: string): Promise<{ payment_intent: string } | { charge: string }> {
    const s = await call("checkout.sessions.retrieve", async () => (await client()).checkout.sessions.retrieve(providerRef));
    const intent = idOf(s.payment_intent);
    if (intent) return { payment_intent: intent };
    const invoice = idOf(s.invoice);
    if (!invoice) throw new ProviderUnavailable("stripe session has no payment to refund");
    const paid = await call("invoicePayments.list", async () => (await client()).invoicePayments.list({ invoice, status: "paid", limit: 1 }));
    const payment = paid.data[0]?.payment;
    const paidIntent = idOf(payment?.payment_intent);
    if (paidIntent) return { payment_intent: paidIntent };
    const charge = idOf(payment?.charge);
    if (charge) return { charge };
    throw new ProviderUnavailable("stripe invoice has no paid payment to refund");
  }
}
