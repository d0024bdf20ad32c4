import { z } from "zod";
import { orderAnswer } from "../orders/orders.schema.ts";
import { currencyField } from "../products/products.schema.ts";
import { MSG } from "../../http/messages.ts";
import { PROVIDERS } from "../../contract/orders.ts";
import { PAYMENT_METHODS } from "../../contract/payments.ts";

/** Checkbox values browsers and apps send for "I agree". Anything else, or nothing, is not agreement. */
const agreeTerms = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.enum(["1", "0", "true", "false", "on"])], { error: MSG.agreeTerms })
  .optional()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true" || v === "on");

const productOrder = {
  product_id: z.number({ error: "Please choose a product" }).int({ error: "Please choose a product" }).positive({ error: "Please choose a product" }),
  agree_terms: agreeTerms,
  quantity: z
    .number({ error: "Quantity must be a whole number from 1 to 100" })
    .int({ error: "Quantity must be a whole number from 1 to 100" })
    .min(1, { error: "Quantity must be a whole number from 1 to 100" })
    .max(100, { error: "Quantity must be a whole number from 1 to 100" })
    .default(1),
  /** the visitor's currency: charged in where the provider accepts it, else the provider's own (docs/decisions/300) */
  currency: currencyField.optional(),
};

export const createOrderAndPayBody = z.object({
  ...productOrder,
  /** sandbox, stripe, paypal; other SPEC providers answer 'Payment function temporarily unavailable'. */
  provider: z
    .string()
    .regex(/^[a-z_]{1,32}$/, { error: "Unknown payment provider" })
    .default("sandbox"),
  /** One of the provider's methods (GET /api/order/paymentProviders); its own page when omitted. */
  method: z
    .string()
    .regex(/^[a-z_]{1,32}$/, { error: "Unknown payment method" })
    .optional(),
});

export const providerCheckoutBody = z.object(productOrder);

export const capturePaypalBody = z.object({
  session_id: z.string({ error: "Missing PayPal order" }).regex(/^[A-Za-z0-9-]{1,64}$/, { error: "Missing PayPal order" }),
});

export const webhookParams = z.object({ provider: z.string().regex(/^[a-z_]{1,32}$/, { error: "Unknown payment provider" }) });

/** JPay's orderPay: the order number, and optionally the BOC the wallet returned from sendTransaction. */
export const walletOrderPayBody = z.object({
  order_no: z.string({ error: "Please choose an order" }).regex(/^[A-Z0-9]{1,64}$/, { error: "Please choose an order" }),
  boc: z
    .string()
    .regex(/^[A-Za-z0-9+/=_-]{1,20000}$/, { error: "Invalid request" })
    .optional(),
});

// What the routes answer (docs/decisions/229).

/** post /api/order/createOrderAndPay: the order and the provider's session to pay it in (every checkout answers this) */
export const createOrderAndPayAnswer = z.object({
  order_id: z.number(),
  order_no: z.string(),
  pay_url: z.string(),
  session_id: z.string(),
  order: orderAnswer,
});

/** get /api/order/paymentProviders */
export const paymentProvidersAnswer = z.array(
  z.object({
    provider: z.enum(PROVIDERS),
    methods: z.array(z.enum(PAYMENT_METHODS)),
    /** what it charges in, its own first: the buy dialog shows the price in the visitor's one where listed, else the first */
    currencies: z.array(currencyField),
  }),
);

/** post /api/OrderStripe/createCheckoutSession */
export const createCheckoutSessionAnswer = createOrderAndPayAnswer.extend({ url: z.string() });

/** post /api/order/capturePaypalOrder: where the payment stands, for the polling browser (`paymentStatusView`) */
export const capturePaypalOrderAnswer = z.object({
  order_id: z.number(),
  order_no: z.string(),
  order_status: z.string(),
  paid: z.boolean(),
  keep_polling: z.boolean(),
  message: z.string().nullable(),
  poll_interval_ms: z.number(),
  poll_max_tries: z.number(),
});

/** post /api/OrderJpay/createOrder */
export const createOrderAnswer = createOrderAndPayAnswer.extend({
  transfer: z.object({
    address: z.string(),
    amount: z.string(),
    amount_ton: z.string(),
    comment: z.string(),
    payload: z.string(),
    valid_until: z.number(),
    network: z.string(),
  }),
});

/** post /api/OrderJpay/orderPay */
export const orderPayAnswer = capturePaypalOrderAnswer.extend({
  received_amount: z.string().nullable(),
  received_currency: z.string().nullable(),
});

/** post /api/pay/webhook/:provider */
export const providerAnswer = z.object({
  received: z.literal(true),
  duplicate: z.boolean(),
});
