import { api } from "../../lib/api-client.ts";
import type { MembershipStatus } from "../../../../server/src/contract/memberships.ts";
import type { ProductKind } from "../../../../server/src/contract/orders.ts";
import type { PaymentOption } from "./providers.ts";

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
  /** a plan's period in days */
  interval_days: number | null;
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

/** Every provider the server has configured, one option per method it offers (SPEC.md §1: only what works here). */
export async function getPaymentOptions(): Promise<PaymentOption[]> {
  const list = await api.get<{ provider: PaymentOption["provider"]; methods: PaymentOption["method"][] }[]>("/api/order/paymentProviders", { quiet: true });
  return list.flatMap((p) => p.methods.map((method) => ({ provider: p.provider, method })));
}

export function createOrderAndPay(input: { product_id: number; provider: string; method?: string; agree_terms: boolean; quantity?: number }): Promise<CreatedOrder> {
  return api.post<CreatedOrder>("/api/order/createOrderAndPay", input, { quiet: true });
}

/** One of the caller's orders: the result page reads which product a failed payment was for, to retry that one. */
export async function getOrder(orderId: number | string): Promise<{ order_id: number; product_id: number; order_status: string }> {
  return api.get("/api/Order/getOrderInfo", { query: { order_id: Number(orderId) }, quiet: true });
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

/** The member's plan (GET /api/membership/current). */
export interface Membership {
  membership_id: number;
  status: MembershipStatus;
  product_name?: string;
  credits_per_period: number;
  periods_paid: number;
  next_renewal_at: string | null;
  ends_at: string | null;
}

export async function currentMembership(): Promise<Membership | null> {
  return (await api.get<{ membership: Membership | null }>("/api/membership/current", { quiet: true })).membership;
}

export async function cancelMembership(): Promise<Membership> {
  return (await api.post<{ membership: Membership }>("/api/membership/cancel", {}, { quiet: true })).membership;
}

export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
