import { api } from "../../lib/api-client.ts";
import type { ProductKind } from "../../../../server/src/contract/orders.ts";

/** Issue 3's product, order and payment calls (SPEC.md §7 "Products", "Orders and payment"). Prices are minor units. */
export interface Product {
  product_id: number;
  name: string;
  kind: ProductKind;
  credits: number;
  price: number;
  was_price: number | null;
  currency: string;
  best_value: boolean;
  flash_sale_ends_at: string | null;
}

export async function getProducts(): Promise<Product[]> {
  return (await api.get<{ list: Product[] }>("/api/index/getProducts", { quiet: true })).list;
}

export async function getLimitedProducts(): Promise<Product[]> {
  return (await api.get<{ list: Product[] }>("/api/index/getProductsLimited", { quiet: true })).list;
}

export interface CreatedOrder {
  order_id: number;
  order_no: string;
  pay_url: string;
}

export function createOrderAndPay(input: { product_id: number; provider: string; agree_terms: boolean; quantity?: number }): Promise<CreatedOrder> {
  return api.post<CreatedOrder>("/api/order/createOrderAndPay", input, { quiet: true });
}

export async function queryPayment(orderId: number | string): Promise<string> {
  return (await api.post<{ order_status: string }>("/api/order/queryPayment", { order_id: Number(orderId) }, { quiet: true })).order_status;
}

/** PayPal's fraud tooling ties the capture to this browser session (the client metadata header). */
const paypalClientMetadataId = crypto.randomUUID().replace(/-/g, "");

/** PayPal returns the buyer with its own order token; capturing it is what moves the money (issue 3). */
export function capturePaypalOrder(paypalToken: string): Promise<unknown> {
  return api.post("/api/order/capturePaypalOrder", { session_id: paypalToken }, { quiet: true, headers: { "PayPal-Client-Metadata-Id": paypalClientMetadataId } });
}

export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
