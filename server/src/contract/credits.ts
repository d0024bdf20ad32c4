/** How a person's credit history names each movement (docs/decisions/302). Import-free. */

export const LEDGER_LABELS = [
  "purchase",
  "bonus",
  "spent",
  "refund",
  "earnings",
  "payout",
  "adjustment",
  "moved",
  "daily_gift",
  "referral_gift",
  "referral_reversed",
  "tip",
  "other",
] as const;
export type LedgerLabel = (typeof LEDGER_LABELS)[number];

/** The ledger's reasons as the person's history labels them; a reason not listed is `other`. */
const LABEL_OF_REASON: Record<string, LedgerLabel> = {
  purchase: "purchase",
  membership_renewal: "purchase",
  crypto_bonus: "bonus",
  generation: "spent",
  training: "spent",
  chat_message: "spent",
  creator_membership: "spent",
  custom_request_hold: "spent",
  generation_refund: "refund",
  training_refund: "refund",
  chat_refund: "refund",
  creator_membership_refund: "refund",
  custom_request_refund: "refund",
  custom_request_dispute_refund: "refund",
  order_refund: "refund",
  custom_request_earnings: "earnings",
  custom_request_clawback: "earnings",
  creator_membership_earnings: "earnings",
  creator_membership_clawback: "earnings",
  creator_tip_earnings: "earnings",
  creator_tip_clawback: "earnings",
  creator_tip: "tip",
  creator_tip_reversal: "refund",
  message_unlock: "spent",
  message_unlock_earnings: "earnings",
  creator_payout: "payout",
  creator_payout_return: "payout",
  staff_adjustment: "adjustment",
  merge_in: "moved",
  merge_out: "moved",
  daily_check_in: "daily_gift",
  referral_inviter: "referral_gift",
  referral_invitee: "referral_gift",
  referral_reversed: "referral_reversed",
};

export function ledgerLabel(reason: string): LedgerLabel {
  return LABEL_OF_REASON[reason] ?? "other";
}
