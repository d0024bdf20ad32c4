import type { OrderStatus } from "../../db/generated/client.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import type { PaymentOutcome } from "./payment-update.ts";

/** failure_reason of an order paid after its account was banned: paid, credited to nobody, to be refunded (docs/decisions/075). */
export const BANNED_AT_PAYMENT = "account_banned";

/** Status names as the API shows them (SPEC.md §4). */
const STATUS_TEXT: Record<OrderStatus, string> = {
  pending: "pending",
  threeDsPending: "3ds_pending",
  paid: "paid",
  failed: "failed",
  expired: "expired",
  refunded: "refunded",
};

const STATUS_OF_TEXT = Object.fromEntries(Object.entries(STATUS_TEXT).map(([k, v]) => [v, k])) as Record<string, OrderStatus>;

export const OPEN_STATUSES: readonly OrderStatus[] = OPEN_ORDER_STATUSES;

/**
 * The order state machine. A verified success always wins over an earlier failure or expiry (the money was
 * taken, so the credits are owed); nothing but a refund moves an order out of paid, so a late or out-of-order
 * failure cannot undo a payment.
 */
export function nextStatus(current: OrderStatus, outcome: PaymentOutcome): OrderStatus | null {
  switch (outcome) {
    case "paid":
      return current === "paid" || current === "refunded" ? null : "paid";
    case "3ds_pending":
      return current === "pending" ? "threeDsPending" : null;
    case "failed":
      return OPEN_STATUSES.includes(current) ? "failed" : null;
  }
}

/** The status as the API shows it and the database stores it (`3ds_pending`). */
export function statusText(status: OrderStatus): string {
  return STATUS_TEXT[status];
}

/** The status of a raw `orders` row (stored under its SPEC name) as Prisma's enum names it. */
export function statusOfText(text: string): OrderStatus {
  return STATUS_OF_TEXT[text];
}
