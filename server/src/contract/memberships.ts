/**
 * A membership's life: `active` renews each period; `cancelled` was cancelled by the member and runs to the end of
 * the paid period without renewing; `ended` means the provider stopped it (period over after a cancel, or renewals
 * failed until the provider gave up).
 */
export const MEMBERSHIP_STATUSES = ["active", "cancelled", "ended"] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];
