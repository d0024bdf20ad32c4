import { z } from "zod";
import { pageOf } from "../uploads/uploads.schema.ts";

const ORDER_ID = { error: "Please choose an order" };

/** A query string's order id is text made a number; a JSON body's is a JSON number (issue 47). */
const orderId = z.number(ORDER_ID).int(ORDER_ID).positive(ORDER_ID);
export const orderIdQuery = z.object({ order_id: z.coerce.number(ORDER_ID).int(ORDER_ID).positive(ORDER_ID) });
export const orderIdBody = z.object({ order_id: orderId });

/** SPEC.md §9 page sizes. */
export const userOrdersQuery = z.object({
  page: z.coerce.number().int().min(1, { error: "Page must be 1 or more" }).default(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30, 50].includes(n), { error: "Page size must be 10, 20, 30 or 50" })
    .default(20),
});

export const orderActionLogBody = z.object({
  order_id: orderId,
  pixel_id: z.string({ error: "Please give a pixel id" }).trim().min(1, { error: "Please give a pixel id" }).max(128, { error: "Pixel id is too long" }),
});

// What the routes answer (docs/decisions/229).

/** A person's order as the app shows it (`orderView`): in the order history, after a checkout and after a refund. */
export const orderAnswer = z.object({
  order_id: z.number(),
  order_no: z.string(),
  order_status: z.string(),
  amount: z.number(),
  final_price: z.number(),
  currency: z.string(),
  final_price_text: z.string(),
  quantity: z.number(),
  credits: z.number(),
  bonus_credits: z.number(),
  received_amount: z.string().nullable(),
  received_currency: z.string().nullable(),
  refunded_amount: z.number().nullable(),
  provider: z.string(),
  product_id: z.number(),
  product_name: z.string().optional(),
  pay_url: z.string().nullable(),
  created_at: z.date(),
  paid_at: z.date().nullable(),
  expires_at: z.date(),
});

/** get /api/order/getUserOrders */
export const getUserOrdersAnswer = pageOf(orderAnswer);

/** post /api/Order/orderActionLog */
export const orderActionLogAnswer = z.object({
  first: z.boolean(),
});

/** get /api/order/receipt: a paid order's receipt (refunded ones keep theirs, marked so) */
export const receiptAnswer = z.object({
  order_id: z.number(),
  order_no: z.string(),
  order_status: z.string(),
  product_name: z.string(),
  quantity: z.number(),
  credits: z.number(),
  bonus_credits: z.number(),
  price_text: z.string(),
  provider: z.string(),
  created_at: z.date(),
  paid_at: z.date(),
  refunded: z.boolean(),
  refunded_text: z.string().nullable(),
});

/** post /api/order/emailReceipt */
export const emailReceiptAnswer = z.object({ sent_to: z.string() });
