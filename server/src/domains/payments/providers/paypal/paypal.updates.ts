import { decimalToMinor } from "../../../products/money.ts";
import type { PaymentOutcome, PaymentUpdate } from "../provider.ts";
import type { Money, PaypalOrder, Refund, Sale, Subscription, WebhookEvent } from "./paypal.types.ts";

// What PayPal's resources and webhook events say, read into PaymentUpdates; nothing here calls PayPal.

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
export const SALE_COMPLETED = "PAYMENT.SALE.COMPLETED";
/** Money of a subscription's sale returned: the merchant refunded it, or PayPal reversed it (decision 219). */
export const SALE_REVERSAL: Record<string, "refund" | "chargeback"> = { "PAYMENT.SALE.REFUNDED": "refund", "PAYMENT.SALE.REVERSED": "chargeback" };
/** PayPal subscription ids ("I-BW452GLLEP1G"); PayPal order ids have no dash. A plan order's reference is one. */
export const isSubscriptionId = (ref: string) => ref.startsWith("I-");

export const date = (iso: string | undefined) => (iso && Number.isFinite(Date.parse(iso)) ? new Date(iso) : undefined);

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
    reversal: {
      kind,
      ...(refund.amount ? { amountMinor: decimalToMinor(refund.amount.value, refund.amount.currency_code), currency: refund.amount.currency_code } : {}),
      ...(total ? { totalMinor: decimalToMinor(total.value, total.currency_code) } : {}),
    },
  };
}

const WEBHOOK_OUTCOME: Record<string, PaymentOutcome> = {
  "PAYMENT.CAPTURE.COMPLETED": "paid",
  "PAYMENT.CAPTURE.DENIED": "failed",
  "PAYMENT.CAPTURE.DECLINED": "failed",
};

/** The PayPal account that paid, where the order names it (referral gifts refuse one payer behind two accounts). */
function payerOf(order: PaypalOrder): { payerRef?: string } {
  const id = order.payment_source?.paypal?.account_id ?? order.payer?.payer_id;
  return id ? { payerRef: `paypal:${id}` } : {};
}

/** The PayPal capture of a PayPal order, with what it says about our order. */
export function captureUpdate(order: PaypalOrder, via: string): PaymentUpdate | null {
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
    ...payerOf(order),
    orderNo: capture?.custom_id ?? unit?.custom_id ?? unit?.reference_id,
    ...moneyFacts(capture?.amount),
    failureReason: outcome === "failed" ? "declined" : undefined,
    payload: order,
  };
}

export function moneyFacts(amount: Money | undefined): { amountMinor?: number; currency?: string } {
  return amount ? { amountMinor: decimalToMinor(amount.value, amount.currency_code), currency: amount.currency_code } : {};
}

/** BILLING.SUBSCRIPTION.*: a subscription's state changed, dated by PayPal (decision 225). */
export function subscriptionEventUpdate(event: WebhookEvent): PaymentUpdate {
  const sub = event.resource as unknown as Subscription | undefined;
  const subscriptionState = SUBSCRIPTION_STATE[event.event_type];
  return {
    eventId: event.id,
    type: event.event_type,
    outcome: null,
    providerRef: sub?.id,
    orderNo: sub?.custom_id,
    ...(sub?.id && subscriptionState
      ? {
          subscription: {
            ref: sub.id,
            state: subscriptionState,
            currentPeriodEnd: date(sub.billing_info?.next_billing_time),
            stateChangedAt: date(sub.status_update_time) ?? date(event.create_time),
          },
        }
      : {}),
    payload: event,
  };
}

/** PAYMENT.SALE.COMPLETED: a charge of a subscription. */
export function saleEventUpdate(event: WebhookEvent): PaymentUpdate {
  return { eventId: event.id, type: event.event_type, outcome: null, ...saleUpdate(event.resource as unknown as Sale), payload: event };
}

/** Any other event: a capture completed, denied or returned, or a PayPal order the buyer approved. */
export function paymentEventUpdate(event: WebhookEvent): PaymentUpdate {
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
}
