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
  /**
   * The provider's id of the payment itself where it differs from providerRef (Stripe payment intent, PayPal capture
   * or subscription sale, NOWPayments payment id). Stored on the order the first time it is known; a later fact that
   * names only the payment (a refund, a chargeback) finds the order by it, and polling asks the provider with it.
   */
  paymentRef?: string;
  /**
   * Who paid, as the provider names them where it does (a card's fingerprint, a PayPal payer id): kept on the order
   * the first time, so one payer behind two accounts can be told (referral gifts, docs/decisions/302).
   */
  payerRef?: string;
  /** The provider returned money of a paid order (decision 208). */
  reversal?: Reversal;
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
  /** When the provider says that state began (PayPal's `status_update_time`, else the event's `create_time`): a stale event cannot undo a newer state (decision 225). */
  stateChangedAt?: Date;
}

/** A refund (the merchant or support returned money) or a chargeback (the buyer's bank or the provider took it back). */
export interface Reversal {
  kind: "refund" | "chargeback";
  /** What this reversal returned, in minor units of `currency`; absent when the provider does not say (the whole payment). */
  amountMinor?: number;
  /** Everything returned of the payment so far, where the provider says it (Stripe, PayPal). */
  totalMinor?: number;
  currency?: string;
}
