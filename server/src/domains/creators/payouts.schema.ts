import { z } from "zod";
import {
  DISPUTE_OUTCOMES,
  DISPUTE_REASON_MAX,
  DISPUTE_STATUSES,
  PAYOUT_MESSAGES as M,
  PAYOUT_MIN_CREDITS,
  PAYOUT_REFERENCE_MAX,
  PAYOUT_STATUSES,
} from "../../contract/creator-payouts.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";

const belowMinimum = M.belowMinimum.replace("{{min}}", String(PAYOUT_MIN_CREDITS));

export const payoutBody = z.object({
  amount: z.number({ error: belowMinimum }).int({ error: belowMinimum }).min(PAYOUT_MIN_CREDITS, { error: belowMinimum }).max(100_000_000),
  /** one per tap: a retried or double-clicked request is one payout */
  idempotency_key: z.string().min(8).max(100),
});

export const disputeBody = z.object({
  id: z.number().int().positive(),
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

export const disputeFilter = z.strictObject({
  id: idsFilter,
  disputeStatus: z.enum(DISPUTE_STATUSES).optional(),
  creatorPageId: intFilter,
  fanUserId: intFilter,
});
export type DisputeFilter = z.infer<typeof disputeFilter>;
export const disputeSortable = ["id", "disputedAt", "price", "disputeStatus"] as const;

// What the routes answer (docs/decisions/229).

/** get /api/Subscribe/earnings */
export const earningsAnswer = z.object({
  earned: z.number(),
  in_escrow: z.number(),
  in_dispute: z.number(),
  payout_pending: z.number(),
  paid_out: z.number(),
  payable: z.number(),
  balance: z.number(),
  shortfall: z.number(),
  min_payout: z.number(),
});

/** payouts list  */
export const payoutRow = z.object({
  creatorUserId: z.number(),
  homeLink: z.string(),
  id: z.number(),
  createdAt: z.date(),
  status: z.enum(PAYOUT_STATUSES),
  idempotencyKey: z.string(),
  creatorPageId: z.number(),
  amount: z.number(),
  decidedAt: z.date().nullable(),
  reference: z.string().nullable(),
  rejectReason: z.string().nullable(),
  decidedById: z.number().nullable(),
});

/** payouts get: the payout with its creator's earnings beside it */
export const payoutRecord = payoutRow.extend({ earnings: earningsAnswer });

/** disputes list  */
export const disputeRecord = z.object({
  id: z.number(),
  creatorPageId: z.number(),
  creatorUserId: z.number(),
  homeLink: z.string(),
  fanUserId: z.number(),
  text: z.string(),
  price: z.number(),
  deliveredTaskId: z.number().nullable(),
  disputeStatus: z.enum(DISPUTE_STATUSES).nullable(),
  disputeReason: z.string().nullable(),
  disputedAt: z.date().nullable(),
  disputeResolvedAt: z.date().nullable(),
  disputeResolvedById: z.number().nullable(),
  disputeNote: z.string().nullable(),
  disputeShortfall: z.number(),
  createdAt: z.date(),
});

/** post /api/Subscribe/requestPayout: a payout as its creator sees it, as in their list */
export const requestPayoutAnswer = z.object({
  id: z.number(),
  amount: z.number(),
  status: z.enum(PAYOUT_STATUSES),
  reference: z.string().nullable(),
  reject_reason: z.string().nullable(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
});

/** get /api/Subscribe/payouts */
export const payoutsAnswer = z.object({ list: z.array(requestPayoutAnswer) });

/** post /api/Subscribe/disputeRequest */
export const disputeRequestAnswer = z.object({
  id: z.number(),
  dispute_status: z.enum(DISPUTE_STATUSES).nullable(),
  dispute_reason: z.string().nullable(),
});
