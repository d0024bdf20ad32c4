import { CURRENCIES } from "../../../contract/currencies.ts";
import type { Config } from "../../../config.ts";
import type { SandboxSessionStatus } from "../../../db/generated/client.ts";
import { SANDBOX_EVENTS, sandboxEnabled, type SandboxGateway, type SandboxNotification } from "../sandbox/sandbox-gateway.ts";
import type { SandboxSubscriptions } from "../sandbox/sandbox-subscriptions.ts";
import { InvalidNotification, headerValue, type PaymentOutcome, type PaymentProvider, type PaymentUpdate, type SubscriptionFacts } from "./provider.ts";
import { verifyNotificationSignature } from "./signature.ts";

const OUTCOME_BY_EVENT: Record<string, PaymentOutcome> = {
  [SANDBOX_EVENTS.succeeded]: "paid",
  [SANDBOX_EVENTS.requiresAction]: "3ds_pending",
  [SANDBOX_EVENTS.failed]: "failed",
};

const OUTCOME_BY_STATUS: Partial<Record<SandboxSessionStatus, PaymentOutcome>> = {
  succeeded: "paid",
  challenge: "3ds_pending",
  declined: "failed",
};

const STATE_BY_STATUS = { active: "active", cancel_at_period_end: "cancel_at_period_end", ended: "ended" } as const;

/**
 * What a notification says about a plan's subscription, as Stripe's adapter reads its own: the checkout's payment
 * starts it, a renewal pays one period (named by its number, once), an update or deletion changes its state.
 */
function subscriptionFacts(n: SandboxNotification): SubscriptionFacts | undefined {
  const sub = n.data.subscription;
  if (!sub) return undefined;
  const facts = { ref: sub.id, currentPeriodEnd: new Date(sub.current_period_end * 1000) };
  if (n.type === SANDBOX_EVENTS.renewed) return { ...facts, renewalPeriod: String(sub.period) };
  if (n.type === SANDBOX_EVENTS.updated || n.type === SANDBOX_EVENTS.ended)
    return { ...facts, state: STATE_BY_STATUS[sub.status], stateChangedAt: new Date(n.created * 1000) };
  return facts;
}

/** The built-in test checkout: talks to the sandbox gateway and checks its signed notifications like any provider's. */
export function createSandboxProvider(config: Config, gateway: SandboxGateway, subscriptions: SandboxSubscriptions): PaymentProvider {
  return {
    name: "sandbox",
    available: () => sandboxEnabled(config),
    methods: () => ["checkout"],
    // the test gateway takes whatever it is asked, like Stripe
    currencies: () => CURRENCIES,
    // a plan bought here is a subscription the sandbox renews (docs/decisions/257)
    renews: () => true,
    cancelSubscription: (ref, _orderNo, opts) => subscriptions.cancel(ref, opts?.now ?? false),
    resumeSubscription: (ref) => subscriptions.resume(ref),
    subscriptionPage: (ref) => `${config.publicUrl}/sandbox-pay/subscriptions/${encodeURIComponent(ref)}`,
    createCheckout: (req) => gateway.openSession(req),

    async parseNotification(rawBody, headers): Promise<PaymentUpdate> {
      if (!verifyNotificationSignature(config.SANDBOX_WEBHOOK_SECRET, rawBody, headerValue(headers, "sandbox-signature"))) {
        throw new InvalidNotification("sandbox signature does not match");
      }
      let n: SandboxNotification;
      try {
        n = JSON.parse(rawBody.toString("utf8")) as SandboxNotification;
      } catch {
        throw new InvalidNotification("sandbox notification is not JSON");
      }
      if (typeof n?.id !== "string" || typeof n.data?.session_id !== "string") throw new InvalidNotification("sandbox notification lacks id or session");
      return {
        eventId: n.id,
        type: n.type,
        outcome: OUTCOME_BY_EVENT[n.type] ?? null,
        providerRef: n.data.session_id,
        orderNo: n.data.order_no,
        amountMinor: n.data.amount,
        currency: n.data.currency,
        failureReason: n.type === SANDBOX_EVENTS.failed ? "declined" : undefined,
        subscription: subscriptionFacts(n),
        payload: n,
      };
    },

    async queryPayment(providerRef): Promise<PaymentUpdate | null> {
      const s = await gateway.find(providerRef);
      const outcome = s ? OUTCOME_BY_STATUS[s.status] : undefined;
      if (!s || !outcome) return null;
      return {
        eventId: `query:${s.id}:${s.status}`,
        type: `query.${s.status}`,
        outcome,
        providerRef: s.id,
        orderNo: s.orderNo,
        amountMinor: s.amountMinor,
        currency: s.currency,
        failureReason: outcome === "failed" ? "declined" : undefined,
        // a paid plan's query names its subscription, so a missed notification still starts the membership
        subscription: s.subscription ? { ref: s.subscription.id, currentPeriodEnd: s.subscription.currentPeriodEnd } : undefined,
        payload: { session_id: s.id, status: s.status, amount: s.amountMinor, currency: s.currency },
      };
    },

    refund: (providerRef) => gateway.refund(providerRef),
  };
}
