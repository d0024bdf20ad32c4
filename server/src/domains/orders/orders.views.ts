import type { Order, Product } from "../../db/generated/client.ts";
import { MSG } from "../../http/messages.ts";
import { formatMinor } from "../products/money.ts";
import { OPEN_STATUSES, statusText } from "./orders.status.ts";

/** SPEC.md §9: the browser polls queryPayment every 2 s, at most 50 times. */
export const POLL_INTERVAL_MS = 2000;
export const POLL_MAX_TRIES = 50;

/** The SPEC.md §3 order, amounts in minor units of `currency`. */
export function orderView(o: Order & { product?: Product | null }) {
  return {
    order_id: o.id,
    order_no: o.orderNo,
    order_status: statusText(o.status),
    amount: o.amountMinor,
    final_price: o.finalPriceMinor,
    currency: o.currency,
    final_price_text: formatMinor(o.finalPriceMinor, o.currency),
    quantity: o.quantity,
    credits: o.credits,
    bonus_credits: o.bonusCredits,
    received_amount: o.receivedAmount,
    received_currency: o.receivedCurrency,
    refunded_amount: o.refundedMinor,
    provider: o.provider,
    product_id: o.productId,
    // the name it was sold at (decision 265), whatever staff rename later
    product_name: o.productName,
    pay_url: OPEN_STATUSES.includes(o.status) ? o.payUrl : null,
    created_at: o.createdAt,
    paid_at: o.paidAt,
    expires_at: o.expiresAt,
  };
}

/** What the polling browser needs: the status, when to stop, and the SPEC.md §8 message for an unsuccessful end. */
export function paymentStatusView(o: Order) {
  const message = o.status === "failed" ? MSG.paymentDeclined : o.status === "expired" ? MSG.paymentFailed : null;
  return {
    order_id: o.id,
    order_no: o.orderNo,
    order_status: statusText(o.status),
    paid: o.status === "paid",
    keep_polling: OPEN_STATUSES.includes(o.status),
    message,
    poll_interval_ms: POLL_INTERVAL_MS,
    poll_max_tries: POLL_MAX_TRIES,
  };
}
