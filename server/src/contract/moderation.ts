/** Moderation words shared by the server and the browser apps. Import-free (docs/decisions/050). */

/** Equals Prisma's ReportReason enum. */
export const REPORT_REASONS = ["underage", "non_consensual", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** Equals Prisma's ReportTarget enum. */
export const REPORT_TARGETS = ["task", "upload", "character", "creator_page"] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

/** Equals Prisma's ReportStatus enum. */
export const REPORT_STATUSES = ["open", "dismissed", "actioned"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Equals Prisma's ContentState enum. */
export const CONTENT_STATES = ["active", "suspended", "removed"] as const;
export type ContentState = (typeof CONTENT_STATES)[number];
