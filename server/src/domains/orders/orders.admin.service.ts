import type { Db } from "../../db/client.ts";
import { dateRange, pageOf, type ListParams } from "../../db/paging.ts";
import type { OrderFilter, PaymentEventFilter } from "./orders.admin.schema.ts";

/** Orders and the provider notifications received for them, read-only: only verified notifications change an order. */
export function createOrdersAdminService(db: Db) {
  return {
    list: (params: ListParams<OrderFilter>) => {
      const f = params.filter;
      return pageOf(db.order, params, {
        ...(f.id ? { id: { in: f.id } } : {}),
        ...(f.q ? { OR: [{ orderNo: { contains: f.q } }, { providerRef: { contains: f.q } }] } : {}),
        ...(f.status ? { status: f.status } : {}),
        ...(f.provider ? { provider: f.provider } : {}),
        ...(f.channelId ? { channelId: f.channelId } : {}),
        ...(f.userId ? { userId: f.userId } : {}),
        ...(dateRange(f.createdAt_gte, f.createdAt_lte) ? { createdAt: dateRange(f.createdAt_gte, f.createdAt_lte) } : {}),
      });
    },
    get: (id: number) => db.order.findUnique({ where: { id } }),

    listPaymentEvents: (params: ListParams<PaymentEventFilter>) => {
      const f = params.filter;
      return pageOf(db.paymentEvent, params, {
        ...(f.id ? { id: { in: f.id } } : {}),
        ...(f.orderId ? { orderId: f.orderId } : {}),
        ...(f.provider ? { provider: f.provider } : {}),
        ...(f.type ? { type: f.type } : {}),
      });
    },
    getPaymentEvent: (id: number) => db.paymentEvent.findUnique({ where: { id } }),
  };
}

export type OrdersAdminService = ReturnType<typeof createOrdersAdminService>;
