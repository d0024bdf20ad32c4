/** Payment providers Reverie can take money through; one adapter file each in this folder. */
import type { Currency } from "../../../contract/currencies.ts";
import type { ProviderName } from "../../../contract/orders.ts";
import type { PaymentMethod } from "../../../contract/payments.ts";
import type { PaymentOutcome, PaymentUpdate, SubscriptionFacts } from "../../orders/payment-update.ts";

export type { PaymentMethod, PaymentOutcome, PaymentUpdate, ProviderName, SubscriptionFacts };

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

export interface CheckoutSession {
  /** The provider's id for this checkout (Stripe session, PayPal order, sandbox session). */
  providerRef: string;
  /** Where the browser goes to pay. */
  payUrl: string;
}

export type NotificationHeaders = Record<string, string | string[] | undefined>;

/** The one small interface every provider adapter implements. */
export interface PaymentProvider {
  readonly name: ProviderName;
  /** False when the provider is not configured here; orders through it answer 'Payment function temporarily unavailable'. */
  available(): boolean;
  /** The ways to pay this provider offers here (only asked when available). */
  methods(): readonly PaymentMethod[];
  /**
   * The currencies it charges in here, its settlement currency first (docs/decisions/300): a checkout charges the
   * product's price in the visitor's currency where it is one of these, else in the first.
   */
  currencies(): readonly Currency[];
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /** Verifies the signature of a raw notification and reads it; throws InvalidNotification when it is not genuine. */
  parseNotification(rawBody: Buffer, headers: NotificationHeaders): Promise<PaymentUpdate>;
  /**
   * Asks the provider for the checkout's state; null while nothing has happened yet (or nothing can be asked yet).
   * `paymentRef` is the provider's payment id where the order learnt one (PaymentUpdate.paymentRef).
   */
  queryPayment(providerRef: string, paymentRef?: string | null): Promise<PaymentUpdate | null>;
  /** True when a plan paid with this method is a subscription the provider renews (a membership). */
  renews?(method: PaymentMethod): boolean;
  /**
   * Stops a subscription's renewals at the end of the paid period, where the provider has subscriptions; `now` ends it
   * at once (its plan order was refunded). Providers whose cancel always ends at once ignore it.
   */
  cancelSubscription?(subscriptionRef: string, orderNo: string, opts?: { now?: boolean }): Promise<void>;
  /**
   * Renews a subscription the member cancelled again, while its paid period runs, where the provider allows it; throws
   * SubscriptionNotResumable when the subscription has ended on the provider's side.
   */
  resumeSubscription?(subscriptionRef: string, orderNo: string): Promise<void>;
  /** The provider's own page where this subscription can be looked at (the sandbox's test page), where it has one. */
  subscriptionPage?(subscriptionRef: string): string;
  /**
   * Returns all the money of a paid checkout, where the provider supports it; safe to call again for the same order.
   * `paymentRef` is the provider's id of the payment where the order learnt one (a subscription's first sale).
   */
  refund?(providerRef: string, orderNo: string, paymentRef?: string | null): Promise<void>;
  /**
   * True where the server cannot send the money back at all (JPay: TON leaves only from a wallet holding its key): a
   * staff refund takes the credits back and records the reference of the transfer staff sent back by hand.
   */
  readonly returnedByHand?: boolean;
}

/** A notification that failed verification (bad, missing or stale signature, or unreadable body). */
export class InvalidNotification extends Error {}

/** The provider could not be reached or refused our request; the order cannot go ahead now. */
export class ProviderUnavailable extends Error {}

/** The provider will not renew this subscription again (it ended on its side): the member buys the plan anew. */
export class SubscriptionNotResumable extends Error {}

export function headerValue(headers: NotificationHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
