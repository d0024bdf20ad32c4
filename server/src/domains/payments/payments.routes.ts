import type { ApiRouter } from "../../http/api.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { orderIdBody } from "../orders/orders.schema.ts";
import {
  capturePaypalBody,
  capturePaypalOrderAnswer,
  createCheckoutSessionAnswer,
  createOrderAndPayAnswer,
  createOrderAndPayBody,
  createOrderAnswer,
  orderPayAnswer,
  paymentProvidersAnswer,
  providerAnswer,
  providerCheckoutBody,
  walletOrderPayBody,
  webhookParams,
} from "./payments.schema.ts";
import type { PaymentsService } from "./payments.service.ts";
import { PAGSMILE_NOTIFY_REPLY } from "./providers/pagsmile.provider.ts";

/** SPEC.md §7 Pagsmile calls and the method each opens. */
const PAGSMILE_ROUTES = [
  ["createPagsmileRecurringPay", "recurring", "a recurring card payment (monthly)"],
  ["createPagsmileSBPPayment", "sbp", "SBP (Russia's Faster Payments System)"],
  ["createPagsmileSberPayPayment", "sberpay", "SberPay"],
  ["createPagsmileTPayPayment", "tpay", "T-Pay"],
] as const;

const QUERIES_PER_MINUTE = 60;

export function paymentsRoutes(api: ApiRouter, payments: PaymentsService, limiter: RateLimiter, ordersPerHour: number) {
  const tags = ["payments"];
  // Every order opens a checkout at a provider: cap how many one account can open.
  const orderLimit = limiter.perUser("create-order", ordersPerHour, 3600);
  // SPEC.md §9 polling is one query every 2 s; twice that is plenty, and each query may call the provider.
  const queryLimit = limiter.perUser("query-payment", QUERIES_PER_MINUTE, 60);
  const pay = { tags, auth: "user" as const, can: ["create", "Payment"] as ["create", "Payment"], before: [orderLimit] };

  api.post(
    "/api/order/createOrderAndPay",
    {
      ...pay,
      summary: "Create an order and open the provider's checkout; returns order_id, order_no and pay_url",
      body: createOrderAndPayBody,
      response: createOrderAndPayAnswer,
    },
    ({ body, principal }) =>
      payments.startCheckout({
        userId: principal.userId,
        productId: body.product_id,
        quantity: body.quantity,
        currency: body.currency,
        provider: body.provider,
        method: body.method,
        agreeTerms: body.agree_terms,
      }),
  );

  api.get(
    "/api/order/paymentProviders",
    { tags, auth: "public", summary: "The payment providers configured here and the methods each offers", response: paymentProvidersAnswer },
    () => payments.configuredProviders(),
  );

  for (const [call, method, what] of PAGSMILE_ROUTES) {
    api.post(
      `/api/order/${call}`,
      {
        ...pay,
        summary: `Create an order paid through Pagsmile: ${what}; pay_url is Pagsmile's page`,
        body: providerCheckoutBody,
        response: createOrderAndPayAnswer,
      },
      ({ body, principal }) =>
        payments.startCheckout({
          userId: principal.userId,
          productId: body.product_id,
          quantity: body.quantity,
          currency: body.currency,
          provider: "pagsmile",
          method,
          agreeTerms: body.agree_terms,
        }),
    );
  }

  // Pagsmile's notify_url: it delivers again until it reads the plain text "success".
  api.post(
    "/api/order/pagsmileNotify",
    {
      tags,
      auth: "public",
      summary: "Pagsmile notifications (Pagsmile-Signature on the raw body); answers success",
      response: { kind: "file", contentType: "text/plain", description: "`success`" },
    },
    async ({ req, res }) => {
      await payments.handleNotification("pagsmile", req.rawBody, req.headers);
      res.type("text/plain").send(PAGSMILE_NOTIFY_REPLY);
    },
  );

  api.post(
    "/api/OrderStripe/createCheckoutSession",
    { ...pay, summary: "Create an order paid through Stripe Checkout", body: providerCheckoutBody, response: createCheckoutSessionAnswer },
    async ({ body, principal }) => {
      const started = await payments.startCheckout({
        userId: principal.userId,
        productId: body.product_id,
        quantity: body.quantity,
        currency: body.currency,
        provider: "stripe",
        agreeTerms: body.agree_terms,
      });
      return { ...started, url: started.pay_url };
    },
  );

  api.post(
    "/api/order/createPaypalPay",
    {
      ...pay,
      summary: "Create an order paid through PayPal; pay_url is PayPal's approval page",
      body: providerCheckoutBody,
      response: createOrderAndPayAnswer,
    },
    ({ body, principal }) =>
      payments.startCheckout({
        userId: principal.userId,
        productId: body.product_id,
        quantity: body.quantity,
        currency: body.currency,
        provider: "paypal",
        agreeTerms: body.agree_terms,
      }),
  );

  api.post(
    "/api/order/capturePaypalOrder",
    {
      ...pay,
      before: [],
      summary: "Capture an approved PayPal order (session_id, PayPal-Client-Metadata-Id header)",
      body: capturePaypalBody,
      response: capturePaypalOrderAnswer,
    },
    ({ body, ability, req }) => payments.capturePaypalOrder(body.session_id, req.get("paypal-client-metadata-id")?.slice(0, 128), ability),
  );

  // JPay: TON wallet payments through TON Connect (docs/decisions/210)
  api.post(
    "/api/OrderJpay/createOrder",
    {
      ...pay,
      summary: "Create an order paid from the buyer's TON wallet; `transfer` is what TON Connect's sendTransaction sends (address, nanotons, comment payload)",
      body: providerCheckoutBody,
      response: createOrderAnswer,
    },
    async ({ body, principal }) => {
      const started = await payments.startCheckout({
        userId: principal.userId,
        productId: body.product_id,
        quantity: body.quantity,
        currency: body.currency,
        provider: "jpay",
        agreeTerms: body.agree_terms,
      });
      return { ...started, transfer: payments.walletTransfer(started.session_id) };
    },
  );

  api.post(
    "/api/OrderJpay/orderPay",
    {
      tags,
      auth: "user",
      can: ["read", "Order"],
      before: [queryLimit],
      summary: "The wallet sent the transfer: the server looks it up on chain and credits the order only for what it finds",
      body: walletOrderPayBody,
      response: orderPayAnswer,
    },
    ({ body, ability }) => payments.walletOrderPay(body.order_no, body.boc, ability),
  );

  api.post(
    "/api/order/queryPayment",
    {
      tags,
      auth: "user",
      can: ["read", "Order"],
      before: [queryLimit],
      summary: "The order's payment status for the polling browser (every 2 s, at most 50 tries)",
      body: orderIdBody,
      response: capturePaypalOrderAnswer,
    },
    ({ body, ability }) => payments.queryPayment(body.order_id, ability),
  );

  api.post(
    "/api/pay/webhook/:provider",
    { tags, auth: "public", summary: "Provider notifications (raw body, signature verified)", params: webhookParams, response: providerAnswer },
    ({ params, req }) => payments.handleNotification(params.provider, req.rawBody, req.headers),
  );
}
