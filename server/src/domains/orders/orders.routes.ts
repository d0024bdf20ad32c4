import type { ApiRouter } from "../../http/api.ts";
import type { OrderReceipts } from "./orders.receipts.ts";
import {
  emailReceiptAnswer,
  getUserOrdersAnswer,
  orderAnswer,
  orderActionLogAnswer,
  orderActionLogBody,
  orderIdBody,
  orderIdQuery,
  receiptAnswer,
  userOrdersQuery,
} from "./orders.schema.ts";
import { orderView, type OrdersService } from "./orders.service.ts";

export function ordersRoutes(api: ApiRouter, orders: OrdersService, receipts: OrderReceipts) {
  const tags = ["orders"];

  for (const path of ["/api/order/getOrderDetail", "/api/Order/getOrderInfo"]) {
    api.get(
      path,
      {
        summary: "One of the signed-in user's orders (amounts in minor units)",
        tags,
        auth: "user",
        can: ["read", "Order"],
        query: orderIdQuery,
        response: orderAnswer,
      },
      async ({ query, ability }) => orderView(await orders.readable(query.order_id, ability)),
    );
  }

  api.get(
    "/api/order/getUserOrders",
    { summary: "The signed-in user's orders, newest first", tags, auth: "user", can: ["read", "Order"], query: userOrdersQuery, response: getUserOrdersAnswer },
    ({ query, principal }) => orders.listForUser(principal.userId, query.page, query.limit),
  );

  api.post(
    "/api/Order/orderActionLog",
    {
      summary: "Record that an ad pixel reported this order; `first` is true only once per pixel",
      tags,
      auth: "user",
      can: ["read", "Order"],
      body: orderActionLogBody,
      response: orderActionLogAnswer,
    },
    ({ body, ability }) => orders.logPixelAction(body.order_id, body.pixel_id, ability),
  );

  api.get(
    "/api/order/receipt",
    {
      summary: "The receipt of one of the signed-in user's paid orders",
      tags,
      auth: "user",
      can: ["read", "Order"],
      query: orderIdQuery,
      response: receiptAnswer,
    },
    ({ query, ability }) => receipts.receipt(query.order_id, ability),
  );

  api.post(
    "/api/order/emailReceipt",
    {
      summary: "Email a paid order's receipt to the address on the account, in its language",
      tags,
      auth: "user",
      can: ["read", "Order"],
      body: orderIdBody,
      response: emailReceiptAnswer,
    },
    ({ body, ability }) => receipts.emailReceipt(body.order_id, ability),
  );
}
