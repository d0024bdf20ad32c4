import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { OrderFilter, PaymentEventFilter } from "./orders.admin.schema.ts";

/** Orders and the provider notifications received for them, read-only: only verified notifications change an order. */
export function createOrdersAdminService(db: Db) {
  return {
    list: (params: ListParams<OrderFilter>) => {
      const f = params.filter;
      return pageOf(db.order, params, {
        ...matching(f, ["status", "provider", "channelId", "userId"]),
        ...(f.q ? { OR: [{ orderNo: { contains: f.q } }, { providerRef: { contains: f.q } }] } : {}),
      });
    },
    get: (id: number) => db.order.findUnique({ where: { id } }),

    listPaymentEvents: (params: ListParams<PaymentEventFilter>) => pageOf(db.paymentEvent, params, matching(params.filter, ["orderId", "provider", "type"])),
    getPaymentEvent: (id: number) => db.paymentEvent.findUnique({ where: { id } }),
  };
}

export type OrdersAdminService = ReturnType<typeof createOrdersAdminService>;
