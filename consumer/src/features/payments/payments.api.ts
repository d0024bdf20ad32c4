import { api, type ApiData } from "../../lib/api-client.ts";
import type { PaymentOption } from "./providers.ts";

/** Issue 3's product, order and payment calls (SPEC.md §7 "Products", "Orders and payment"). Prices are minor units. */
export type Product = ApiData<"/api/index/getProducts", "get">["list"][number];

export async function getProducts(): Promise<Product[]> {
  return (await api.get("/api/index/getProducts", { quiet: true })).list;
}

export async function getLimitedProducts(): Promise<Product[]> {
  return (await api.get("/api/index/getProductsLimited", { quiet: true })).list;
}

export type CreatedOrder = ApiData<"/api/order/createOrderAndPay", "post">;

/** Every provider the server has configured, one option per method it offers (SPEC.md §1: only what works here). */
export async function getPaymentOptions(): Promise<PaymentOption[]> {
  const list = await api.get("/api/order/paymentProviders", { quiet: true });
  return list.flatMap((p) => p.methods.map((method) => ({ provider: p.provider, method })));
}

export function createOrderAndPay(input: {
  product_id: number;
  provider: string;
  method?: string;
  agree_terms: boolean;
  quantity?: number;
}): Promise<CreatedOrder> {
  return api.post("/api/order/createOrderAndPay", input, { quiet: true });
}

/** One of the caller's orders: the result page reads which product a failed payment was for, to retry that one. */
export async function getOrder(orderId: number | string): Promise<ApiData<"/api/Order/getOrderInfo", "get">> {
  return api.get("/api/Order/getOrderInfo", { query: { order_id: Number(orderId) }, quiet: true });
}

export async function queryPayment(orderId: number | string): Promise<string> {
  return (await api.post("/api/order/queryPayment", { order_id: Number(orderId) }, { quiet: true })).order_status;
}

/** PayPal's fraud tooling ties the capture to this browser session (the client metadata header). */
const paypalClientMetadataId = crypto.randomUUID().replace(/-/g, "");

/** PayPal returns the buyer with its own order token; capturing it is what moves the money (issue 3). */
export function capturePaypalOrder(paypalToken: string): Promise<unknown> {
  return api.post(
    "/api/order/capturePaypalOrder",
    { session_id: paypalToken },
    { quiet: true, headers: { "PayPal-Client-Metadata-Id": paypalClientMetadataId } },
  );
}

/** The member's plan (GET /api/membership/current). */
export type Membership = NonNullable<ApiData<"/api/membership/current", "get">["membership"]>;

export async function currentMembership(): Promise<Membership | null> {
  return (await api.get("/api/membership/current", { quiet: true })).membership;
}

export async function cancelMembership(): Promise<unknown> {
  return (await api.post("/api/membership/cancel", {}, { quiet: true })).membership;
}

export async function resumeMembership(): Promise<unknown> {
  return (await api.post("/api/membership/resume", {}, { quiet: true })).membership;
}

export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
