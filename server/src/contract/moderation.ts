/** Moderation words shared by the server and the browser apps. Import-free (docs/decisions/050). */

/** Equals Prisma's ReportReason enum. */
/** non_consensual: a non-consensual intimate image; copyright and impersonation arrive mostly through the public notice form. */
export const REPORT_REASONS = ["underage", "non_consensual", "impersonation", "copyright", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Equals Prisma's ReportTarget enum. */
export const REPORT_TARGETS = ["task", "upload", "character", "creator_page", "conversation", "message"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

/** Equals Prisma's ReportStatus enum. */
export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Equals Prisma's ContentState enum. */
export const CONTENT_STATES = ["active", "suspended", "removed"] as const;
export type ContentState = (typeof CONTENT_STATES)[number];

/** Equals Prisma's ReportSource enum: in_app (the report button), notice (the public notice-and-action form). */
export const REPORT_SOURCES = ["in_app", "notice"] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

/** Equals Prisma's DecisionAction enum: what a statement of reasons tells the person was done. */
export const DECISION_ACTIONS = ["takedown", "hold", "ban"] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** Equals Prisma's DecisionGround enum: a report reason, or repeated upheld takedowns (the automatic suspension). */
export const DECISION_GROUNDS = ["underage", "non_consensual", "impersonation", "copyright", "other", "repeat_offender"] as const;
export type DecisionGround = (typeof DECISION_GROUNDS)[number];

/** Equals Prisma's AppealStatus enum. */
export const APPEAL_STATUSES = ["open", "upheld", "reversed"] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];

/** The notice-and-action target (the TAKE IT DOWN Act's 48 hours), in hours. */
export const ACTION_TARGET_HOURS = 48;

/** Equals Prisma's BanMarkKind enum: what else than the account a ban covers (docs/decisions/154). */
export const BAN_MARK_KINDS = ["email", "google_sub", "player_uid", "device_id", "fingerprint"] as const;
export type BanMarkKind = (typeof BAN_MARK_KINDS)[number];
