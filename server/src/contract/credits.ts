/**
 * How a person's credit history names each movement (docs/decisions/302, 378): every reason the ledger is written
 * with is a kind of its own, with its own words in the app (`rewards.history.label.<kind>`). Import-free.
 */

/** Every reason the product writes a ledger row with; the domains' own reason vocabularies are among them. */
export const LEDGER_REASONS = [
  // credits in
  "purchase",
  "membership_renewal",
  "crypto_bonus",
  "staff_adjustment",
  "merge_in",
  "merge_out",
  "daily_check_in",
  "referral_inviter",
  "referral_invitee",
  "referral_reversed",
  // spent
  "generation",
  "training",
  "chat_message",
  "creator_membership",
  "custom_request_hold",
  "creator_tip",
  "message_unlock",
  // given back
  "generation_refund",
  "training_refund",
  "chat_refund",
  "creator_membership_refund",
  "custom_request_refund",
  "custom_request_dispute_refund",
  "creator_tip_reversal",
  // a paid order undone
  "order_refund",
  "chargeback",
  // a creator's earnings and what was taken back from them
  "custom_request_earnings",
  "custom_request_clawback",
  "creator_membership_earnings",
  "creator_membership_clawback",
  "creator_tip_earnings",
  "creator_tip_clawback",
  "message_unlock_earnings",
  "creator_payout",
  "creator_payout_return",
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** What the history shows: the reason itself, or `other` for a row written with a reason no longer in use. */
export const LEDGER_LABELS = [...LEDGER_REASONS, "other"] as const;
export type LedgerLabel = (typeof LEDGER_LABELS)[number];

const KNOWN: ReadonlySet<string> = new Set(LEDGER_REASONS);

export function ledgerLabel(reason: string): LedgerLabel {
  return KNOWN.has(reason) ? (reason as LedgerReason) : "other";
}
