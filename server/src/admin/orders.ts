import type { ApiRouter } from "../http/api.ts";
import { AdminResource } from "./resource.ts";
import type { OrdersAdminService } from "../domains/orders/orders.admin.service.ts";
import { orderFilter, orderSortable, paymentEventFilter, paymentEventSortable } from "../domains/orders/orders.admin.schema.ts";

/** Orders and the payment events received for them; read-only (only verified provider notifications change an order). */
export function ordersResource(api: ApiRouter, orders: OrdersAdminService) {
  const r = new AdminResource(api, "orders", "Order");
  r.list({ filter: orderFilter, sortable: orderSortable }, (p) => orders.list(p));
  r.get((id) => orders.get(id));

  const events = new AdminResource(api, "payment-events", "PaymentEvent");
  events.list({ filter: paymentEventFilter, sortable: paymentEventSortable }, (p) => orders.listPaymentEvents(p));
  events.get((id) => orders.getPaymentEvent(id));
}
