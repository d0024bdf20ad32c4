import { z } from "zod";
import { dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { ORDER_STATUSES } from "../../contract/orders.ts";

export const orderFilter = z.strictObject({
  id: idsFilter,
  q: textFilter,
  status: z.enum(ORDER_STATUSES).optional(),
  provider: textFilter,
  channelId: textFilter,
  userId: intFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type OrderFilter = z.infer<typeof orderFilter>;
export const orderSortable = ["id", "createdAt", "paidAt", "finalPriceMinor", "status", "provider"] as const;

export const paymentEventFilter = z.strictObject({
  id: idsFilter,
  orderId: intFilter,
  provider: textFilter,
  type: textFilter,
});
export type PaymentEventFilter = z.infer<typeof paymentEventFilter>;
export const paymentEventSortable = ["id", "receivedAt"] as const;

// What the routes answer (docs/decisions/229).

/** orders list  */
export const orderRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  channelId: z.string().nullable(),
  updatedAt: z.date(),
  userId: z.number(),
  expiresAt: z.date(),
  status: z.enum(ORDER_STATUSES),
  credits: z.number(),
  provider: z.string(),
  paidAt: z.date().nullable(),
  finalPriceMinor: z.number(),
  orderNo: z.string(),
  productId: z.number(),
  /** the product's name when the order was made */
  productName: z.string(),
  quantity: z.number(),
  amountMinor: z.number(),
  currency: z.string(),
  bonusCredits: z.number(),
  providerRef: z.string().nullable(),
  payUrl: z.string().nullable(),
  failureReason: z.string().nullable(),
  receivedAmount: z.string().nullable(),
  receivedCurrency: z.string().nullable(),
  refundStartedAt: z.date().nullable(),
  providerPaymentRef: z.string().nullable(),
  refundedMinor: z.number().nullable(),
  /** the legal pages' version the buyer agreed to (decision 282) */
  termsVersion: z.number().nullable(),
});

/** orders view refund-preview */
export const orderRefundPreviewAnswer = z.object({
  return_by_hand: z
    .object({
      amount: z.string().nullable(),
      currency: z.string().nullable(),
    })
    .nullable(),
  order_id: z.number(),
  credits: z.number(),
  balance: z.number(),
  claw_back: z.number(),
  already_spent: z.number(),
});

/** memberships list  */
export const membershipRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  updatedAt: z.date(),
  userId: z.number(),
  status: z.string(),
  endedAt: z.date().nullable(),
  provider: z.string(),
  orderId: z.number(),
  providerRef: z.string(),
  currentPeriodEnd: z.date().nullable(),
  periodsPaid: z.number(),
  creditsPerPeriod: z.number(),
  cancelAtPeriodEnd: z.boolean(),
  reversedPeriods: z.array(z.string()),
  stateChangedAt: z.date().nullable(),
});

/** payment-events list  */
export const paymentEventRecord = z.object({
  type: z.string(),
  id: z.number(),
  provider: z.string(),
  orderId: z.number().nullable(),
  receivedAt: z.date(),
  eventId: z.string(),
  payload: z.unknown(),
});
