import type { PaymentMethod, ProviderName } from "../../../contract/payments.ts";

export { PROVIDERS, type PaymentMethod, type ProviderName } from "../../../contract/payments.ts";

/** What an order becomes because of something the provider said. */
export type PaymentOutcome = "paid" | "3ds_pending" | "failed";

export interface CheckoutRequest {
  orderNo: string;
  /** What the buyer pays, in minor units of `currency`. */
  amountMinor: number;
  unitAmountMinor: number;
  quantity: number;
  currency: string;
  description: string;
  /** Where the provider sends the browser back to (the SPEC.md callback route). */
  returnUrl: string;
  cancelUrl: string;
  /** The order is abandoned after this; the provider's session should not outlive it. */
  expiresAt: Date;
  /** One of the provider's `methods()`; `checkout` lets the buyer choose on the provider's page. */
  method: PaymentMethod;
  /** Our user id, for providers that ask who is buying. */
  buyerId: string;
  /** Where the provider posts its notifications about this checkout. */
  notifyUrl: string;
  /** A plan: the provider charges again every this many days (a subscription) instead of once. */
  renewEveryDays?: number;
}

/** What a verified provider fact says about a subscription (memberships, decision 115). */
export interface SubscriptionFacts {
  /** The provider's subscription id. */
  ref: string;
  /** Set on a paid renewal: the period it pays for (its start time or the provider's period number), once per period. */
  renewalPeriod?: string;
  /** When the paid period ends (the next renewal), where the provider says. */
  currentPeriodEnd?: Date;
  /** The subscription's state after this event, where it changed. */
  state?: "active" | "cancel_at_period_end" | "ended";
}

export interface CheckoutSession {
  /** The provider's id for this checkout (Stripe session, PayPal order, sandbox session). */
  providerRef: string;
  /** Where the browser goes to pay. */
  payUrl: string;
}

/**
 * A verified fact from the provider: a signature-checked notification, or the answer to a query or capture
 * made with our credentials. Never built from anything the browser says.
 */
export interface PaymentUpdate {
  /** Unique per provider; stored once in payment_events, which makes processing exactly-once. */
  eventId: string;
  type: string;
  /** Null when the event says nothing that changes an order. */
  outcome: PaymentOutcome | null;
  providerRef?: string;
  orderNo?: string;
  /** What the provider says was paid, checked against the order before crediting. */
  amountMinor?: number;
  currency?: string;
  failureReason?: string;
  subscription?: SubscriptionFacts;
  /** What actually arrived when the provider reports it (crypto: the coins received, which may be short or over). */
  received?: { amount: string; currency: string };
  payload: unknown;
}

export type NotificationHeaders = Record<string, string | string[] | undefined>;

/** The one small interface every provider adapter implements. */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** False when the provider is not configured here; orders through it answer 'Payment function temporarily unavailable'. */
  available(): boolean;
  /** The ways to pay this provider offers here (only asked when available). */
  methods(): readonly PaymentMethod[];
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the signature of a raw notification and reads it; throws InvalidNotification when it is not genuine. */
  parseNotification(rawBody: Buffer, headers: NotificationHeaders): Promise<PaymentUpdate>;
  /** Asks the provider for the checkout's state; null while nothing has happened yet. */
  queryPayment(providerRef: string): Promise<PaymentUpdate | null>;
  /** True when a plan paid with this method is a subscription the provider renews (a membership). */
  renews?(method: PaymentMethod): boolean;
  /** Stops a subscription's renewals at the end of the paid period, where the provider has subscriptions. */
  cancelSubscription?(subscriptionRef: string, orderNo: string): Promise<void>;
  /** Returns all the money of a paid checkout, where the provider supports it; safe to call again for the same order. */
  refund?(providerRef: string, orderNo: string): Promise<void>;
}

/** A notification that failed verification (bad, missing or stale signature, or unreadable body). */
export class InvalidNotification extends Error {}

/** The provider could not be reached or refused our request; the order cannot go ahead now. */
export class ProviderUnavailable extends Error {}

export function headerValue(headers: NotificationHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
