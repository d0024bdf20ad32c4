import { api, type ApiData } from "../../lib/api-client.ts";

/** The person's conversation with support, as GET /api/support/thread answers it. */
export type SupportAnswer = ApiData<"/api/support/thread", "get">;
export type SupportMessage = NonNullable<SupportAnswer["thread"]>["messages"][number];

/** Errors are shown in the panel itself. */
export function fetchSupportThread(): Promise<SupportAnswer> {
  return api.get("/api/support/thread", { quiet: true });
}

export function sendSupportMessage(body: string, orderId: number | null): Promise<SupportAnswer> {
  return api.post("/api/support/messages", { body, order_id: orderId }, { quiet: true });
}

export function markSupportRead(): Promise<ApiData<"/api/support/read", "post">> {
  return api.post("/api/support/read", {}, { quiet: true });
}
