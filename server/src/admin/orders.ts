import { z } from "zod";
import type { ApiRouter } from "../http/api.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { OrdersAdminService } from "../domains/orders/orders.admin.service.ts";
import { orderAnswer } from "../domains/orders/orders.schema.ts";
import {
  membershipRecord,
  orderFilter,
  orderRecord,
  orderRefundPreviewAnswer,
  orderSortable,
  paymentEventFilter,
  paymentEventRecord,
  paymentEventSortable,
} from "../domains/orders/orders.admin.schema.ts";
import type { PaymentsService } from "../domains/payments/payments.service.ts";
import { membershipFilter, membershipSortable, type MembershipsAdminService } from "../domains/memberships/memberships.admin.ts";

/** A staff refund: the reason, and the already-spent credits the agent saw in the preview before confirming. */
const refundBody = reasonBody.extend({
  acknowledged_spent: z
    .number({ error: "Please review the refund first" })
    .int({ error: "Please review the refund first" })
    .min(0, { error: "Please review the refund first" }),
  /** JPay: the reference (e.g. the transaction hash) of the TON transfer staff sent back by hand. */
  reference: z.string().trim().max(200).optional(),
});

/**
 * Orders and the payment events received for them. Only verified provider notifications change an order's payment;
 * the one staff action is the refund (support), which shows what it will take back before it is confirmed.
 */
export function ordersResource(api: ApiRouter, orders: OrdersAdminService, payments: PaymentsService, memberships: MembershipsAdminService) {
  const r = new AdminResource(api, "orders", "Order");
  r.list({ filter: orderFilter, sortable: orderSortable, row: orderRecord }, (p) => orders.list(p));
  r.get(orderRecord, (id) => orders.get(id));
  r.view(
    "refund-preview",
    {
      summary: "What a refund would take back: the order's credits, the balance, and what was already spent",
      can: ["refund", "Order"],
      response: orderRefundPreviewAnswer,
    },
    (id) => payments.refundPreview(id),
  );
  r.action(
    "refund",
    {
      summary: "Refund a paid order through its provider and take back its credits (never below zero)",
      can: ["refund", "Order"],
      body: refundBody,
      response: orderAnswer,
    },
    (id, body, staff) =>
      payments.refundOrder({
        orderId: id,
        staffId: staff.staffId,
        reason: body.reason,
        acknowledgedSpent: body.acknowledged_spent,
        returnReference: body.reference,
      }),
  );

  // memberships are read with the orders that started them
  const plans = new AdminResource(api, "memberships", "Order");
  plans.list({ filter: membershipFilter, sortable: membershipSortable, row: membershipRecord }, (p) => memberships.list(p));
  plans.get(membershipRecord, (id) => memberships.get(id));

  const events = new AdminResource(api, "payment-events", "PaymentEvent");
  events.list({ filter: paymentEventFilter, sortable: paymentEventSortable, row: paymentEventRecord }, (p) => orders.listPaymentEvents(p));
  events.get(paymentEventRecord, (id) => orders.getPaymentEvent(id));
}
