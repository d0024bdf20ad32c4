/** What the orders domain accepts from a payment provider; payments/ builds these, orders applies them (payments depends on orders, never the reverse). */

/** What an order becomes because of something the provider said. */
export type PaymentOutcome = "paid" | "3ds_pending" | "failed";

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
