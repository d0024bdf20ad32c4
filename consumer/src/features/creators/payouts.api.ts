import { api } from "../../lib/api-client.ts";
import type { EarningsView, PayoutStatus } from "../../../../server/src/contract/creator-payouts.ts";

/** A creator's payout request as the server answers it. */
export interface PayoutView {
  id: number;
  amount: number;
  status: PayoutStatus;
  reference: string | null;
  reject_reason: string | null;
  created_at: string;
  decided_at: string | null;
}

/** Issue 16: the creator's earnings and payouts, and the fan's dispute of a delivery (docs/decisions/206). */
export const payoutsApi = {
  earnings: () => api.get<EarningsView>("/api/Subscribe/earnings", { quiet: true }),
  payouts: () => api.get<{ list: PayoutView[] }>("/api/Subscribe/payouts", { quiet: true }).then((r) => r.list),
  request: (amount: number, idempotency_key: string) => api.post<PayoutView>("/api/Subscribe/requestPayout", { amount, idempotency_key }, { quiet: true }),
  dispute: (id: number, reason: string) => api.post<{ id: number; dispute_status: string }>("/api/Subscribe/disputeRequest", { id, reason }, { quiet: true }),
};
