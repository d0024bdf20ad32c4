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
  payload: unknown;
}
