import { z } from "zod";
import {
  DISPUTE_OUTCOMES, DISPUTE_REASON_MAX, DISPUTE_STATUSES, PAYOUT_MESSAGES as M, PAYOUT_MIN_CREDITS, PAYOUT_REFERENCE_MAX, PAYOUT_STATUSES,
} from "../../contract/creator-payouts.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";

const belowMinimum = M.belowMinimum.replace("{{min}}", String(PAYOUT_MIN_CREDITS));

export const payoutBody = z.object({
  amount: z.coerce.number({ error: belowMinimum }).int({ error: belowMinimum }).min(PAYOUT_MIN_CREDITS, { error: belowMinimum }).max(100_000_000),
  /** one per tap: a retried or double-clicked request is one payout */
  idempotency_key: z.string().min(8).max(100),
});

export const disputeBody = z.object({
  id: z.coerce.number().int().positive(),
  reason: z.string({ error: M.disputeReasonRequired }).trim().min(3, { error: M.disputeReasonRequired }).max(DISPUTE_REASON_MAX),
});

/** Approval names the external transfer, so the payment can be found again. */
export const approveBody = z.object({
  reference: z.string({ error: M.referenceRequired }).trim().min(3, { error: M.referenceRequired }).max(PAYOUT_REFERENCE_MAX),
});

export const resolveBody = z.object({
  outcome: z.enum(DISPUTE_OUTCOMES),
  reason: z.string({ error: "Please give a reason" }).trim().min(3, { error: "Please give a reason" }).max(500),
});

export const payoutFilter = z.strictObject({ id: idsFilter, status: z.enum(PAYOUT_STATUSES).optional(), creatorPageId: intFilter });
export type PayoutFilter = z.infer<typeof payoutFilter>;
export const payoutSortable = ["id", "createdAt", "amount", "status", "decidedAt"] as const;

export const disputeFilter = z.strictObject({ id: idsFilter, disputeStatus: z.enum(DISPUTE_STATUSES).optional(), creatorPageId: intFilter, fanUserId: intFilter });
export type DisputeFilter = z.infer<typeof disputeFilter>;
export const disputeSortable = ["id", "disputedAt", "price", "disputeStatus"] as const;
