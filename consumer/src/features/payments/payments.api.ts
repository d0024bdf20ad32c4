import { api } from "../../lib/api-client.ts";

/** Issue 3's product, order and payment calls (SPEC.md §7 "Products", "Orders and payment"). */

export interface Product {
  id: number;
  name: string;
  kind?: "credits" | "flash_sale" | "subscription";
  credits: number;
  /** minor units */
  price: number;
  was_price?: number | null;
  currency: string;
  best_value?: boolean;
  flash_sale_ends_at?: string | null;
}

/** The server's product, whatever spelling of the price fields it uses, in the shape the UI reads. */
export function normaliseProduct(raw: Record<string, unknown>): Product {
  const num = (...keys: string[]) => {
    for (const k of keys) if (typeof raw[k] === "number") return raw[k] as number;
    return undefined;
  };
  const str = (...keys: string[]) => {
    for (const k of keys) if (typeof raw[k] === "string") return raw[k] as string;
    return undefined;
  };
  return {
    id: num("id", "product_id") ?? 0,
    name: str("name", "title") ?? "",
    kind: str("kind", "type") as Product["kind"],
    credits: num("credits", "points") ?? 0,
    price: num("price", "price_minor", "final_price", "amount") ?? 0,
    was_price: num("was_price", "was_price_minor", "original_price") ?? null,
    currency: str("currency") ?? "USD",
    best_value: raw.best_value === true || raw.best_value === 1 || raw.bestValue === true,
    flash_sale_ends_at: str("flash_sale_ends_at", "ends_at", "end_time") ?? null,
  };
}

function listOf(data: unknown): Record<string, unknown>[] {
  if (Array.isArray(data)) return data as Record<string, unknown>[];
  if (data && typeof data === "object") {
    for (const k of ["list", "products", "items", "data"]) {
      const v = (data as Record<string, unknown>)[k];
      if (Array.isArray(v)) return v as Record<string, unknown>[];
    }
  }
  return [];
}

export async function getProducts(): Promise<Product[]> {
  return listOf(await api.get("/api/index/getProducts", { quiet: true })).map(normaliseProduct);
}

export async function getLimitedProducts(): Promise<Product[]> {
  return listOf(await api.get("/api/index/getProductsLimited", { quiet: true })).map(normaliseProduct);
}

export interface CreatedOrder {
  order_id: number;
  order_no: string;
  pay_url: string;
}

export function createOrderAndPay(input: { product_id: number; provider: string; agree_terms: boolean; quantity?: number }): Promise<CreatedOrder> {
  return api.post<CreatedOrder>("/api/order/createOrderAndPay", { ...input, agree_terms: input.agree_terms ? 1 : 0 }, { quiet: true });
}

export interface PaymentStatus {
  order_status: string;
}

export async function queryPayment(orderId: number | string): Promise<string> {
  const data = await api.post<Record<string, unknown>>("/api/order/queryPayment", { order_id: orderId }, { quiet: true });
  const status = data.order_status ?? data.status;
  return typeof status === "string" ? status : "unknown";
}

/** PayPal returns the buyer with its own order token; the capture is what moves the money (issue 3). */
export function capturePaypalOrder(orderId: number | string, paypalToken: string): Promise<unknown> {
  return api.post("/api/order/capturePaypalOrder", { order_id: orderId, session_id: paypalToken }, { quiet: true });
}

export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 100);
}
