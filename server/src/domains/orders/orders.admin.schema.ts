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
