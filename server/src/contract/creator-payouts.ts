/** Creator earnings, payouts and requests in dispute (issue 16, docs/decisions/206). Import-free (docs/decisions/050). */

/** SPEC-style messages; the consumer app and the console translate by these exact strings. */
export const PAYOUT_MESSAGES = {
  belowMinimum: "A payout must be at least {{min}} credits",
  overPayable: "You can ask for at most your payable credits",
  notOpen: "This payout was already decided",
  referenceRequired: "Please give the transfer reference",
  disputeNotAllowed: "Only a delivery you were not satisfied with can be disputed, once",
  disputeClosed: "This dispute was already resolved",
  disputeReasonRequired: "Please say what went wrong",
  creatorBanned: "This creator is banned: the payout waits for a moderator",
} as const;

/** The smallest payout a creator may ask for, in credits: smaller transfers cost more to send than they are worth. */
export const PAYOUT_MIN_CREDITS = 100;
export const PAYOUT_REFERENCE_MAX = 200;
export const DISPUTE_REASON_MAX = 500;
/** A fan may dispute a delivery this many days after it was delivered; later, its credits are the creator's for good. */
export const DISPUTE_WINDOW_DAYS = 14;

/** A payout's life (equals Prisma's PayoutStatus): requested → approved (paid outside) or rejected (credits back). */
export const PAYOUT_STATUSES = ["requested", "approved", "rejected"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** A dispute's life (equals Prisma's DisputeStatus): open → refunded (the fan gets the price back) or upheld. */
export const DISPUTE_STATUSES = ["open", "refunded", "upheld"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const DISPUTE_OUTCOMES = ["refund", "uphold"] as const;
export type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

/**
 * Ledger reasons whose sum is a creator's earnings: what deliveries released, less what disputes took back, what
 * paid memberships brought in, tips less reversed ones, and unlocked messages.
 */
export const EARNING_REASON = {
  /** a delivered request's price released to the creator */
  release: "custom_request_earnings",
  /** what a dispute refund took back from the creator */
  clawback: "custom_request_clawback",
  /** a fan's paid membership period granted to the creator */
  membership: "creator_membership_earnings",
  /** the unused part of a period refunded to the fan when the creator was banned, taken back from the creator */
  membershipClawback: "creator_membership_clawback",
  /** a fan's tip (docs/decisions/304) */
  tip: "creator_tip_earnings",
  /** a tip staff reversed as fraudulent, taken back from the creator */
  tipClawback: "creator_tip_clawback",
  /** a fan's unlock of a locked message (docs/decisions/310) */
  messageUnlock: "message_unlock_earnings",
} as const;
export const EARNING_REASONS = Object.values(EARNING_REASON);

/** The creator's figures, as `GET /api/Subscribe/earnings` answers them (credits). */
export interface EarningsView {
  /** released to the creator, less what disputes took back */
  earned: number;
  /** open requests to the page: held from fans, not the creator's yet */
  in_escrow: number;
  /** delivered requests in an open dispute: earned but not payable until resolved */
  in_dispute: number;
  /** payout requests waiting for staff (already out of the balance) */
  payout_pending: number;
  paid_out: number;
  /** what a payout may ask for now: earned, less disputes and payouts, and never more than the balance */
  payable: number;
  balance: number;
  /** what dispute refunds and tip reversals could not take back (already spent or paid out) */
  shortfall: number;
  min_payout: number;
}
