import { api, type ApiData } from "../../lib/api-client.ts";
import type { Language } from "../../i18n/index.ts";

/** The account area's calls (issue 30): profile changes, order history and receipts. */
export type UserOrder = ApiData<"/api/order/getUserOrders", "get">["list"][number];
export type Receipt = ApiData<"/api/order/receipt", "get">;

/** SPEC.md §9 page size. */
export const ORDERS_PAGE_SIZE = 20;

export async function userOrders(page: number): Promise<ApiData<"/api/order/getUserOrders", "get">> {
  return api.get("/api/order/getUserOrders", { query: { page, limit: ORDERS_PAGE_SIZE }, quiet: true });
}

export function receipt(orderId: number): Promise<Receipt> {
  return api.get("/api/order/receipt", { query: { order_id: orderId }, quiet: true });
}

export function emailReceipt(orderId: number): Promise<{ sent_to: string }> {
  return api.post("/api/order/emailReceipt", { order_id: orderId }, { quiet: true });
}

export async function updateProfile(patch: { nickname?: string; language?: Language; photo_image_id?: number }): Promise<void> {
  await api.post("/api/Personal/user_update", patch, { quiet: true });
}

/** Orders that have a receipt: paid ones, and refunded ones (marked refunded). */
export const hasReceipt = (o: UserOrder): boolean => o.paid_at !== null && (o.order_status === "paid" || o.order_status === "refunded");
