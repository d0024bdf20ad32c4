import { z } from "zod";

const orderId = z.coerce.number({ error: "Please choose an order" }).int({ error: "Please choose an order" }).positive({ error: "Please choose an order" });

export const orderIdQuery = z.object({ order_id: orderId });
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
