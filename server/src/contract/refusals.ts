/**
 * Why the API refuses a caller, as `data.reason` of a 403, so the apps can say more than the message: a channel
 * that needs billing support's payment permission, or an account that is banned (the answer then also carries
 * the reason staff gave and when). Import-free: the browser apps import it too.
 */
export const REFUSAL_REASONS = ["payment_permission_required", "banned"] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** `data` of a 403 for a banned account. */
export interface BanNotice {
  reason: Extract<RefusalReason, "banned">;
  /** what the moderator wrote when banning, word for word */
  ban_reason: string | null;
  /** ISO time of the ban */
  banned_at: string | null;
  /** the ban's statement of reasons: ground (contract/moderation DECISION_GROUNDS), automated or not, and how to appeal it */
  decision: { id: number; ground: string; automated: boolean; appeal_key: string; appeal_status: string | null } | null;
}
