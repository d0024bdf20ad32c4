import { api, type ApiData } from "../../lib/api-client.ts";

/** A creator's payout request as the server answers it. */
export type PayoutView = ApiData<"/api/Subscribe/requestPayout", "post">;

/** Issue 16: the creator's earnings and payouts, and the fan's dispute of a delivery (docs/decisions/206). */
export const payoutsApi = {
  earnings: () => api.get("/api/Subscribe/earnings", { quiet: true }),
  payouts: () => api.get("/api/Subscribe/payouts", { quiet: true }).then((r) => r.list),
  request: (amount: number, idempotency_key: string) => api.post("/api/Subscribe/requestPayout", { amount, idempotency_key }, { quiet: true }),
  dispute: (id: number, reason: string) => api.post("/api/Subscribe/disputeRequest", { id, reason }, { quiet: true }),
};
