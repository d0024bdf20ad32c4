/**
 * "My data out" (GDPR Art. 15, 20): an export is `queued`, then `running` in the background, then `ready` to download
 * until it `expired` (its archive deleted), or `failed`. One queued or running export per account (decision 261).
 */
export const DATA_EXPORT_STATUSES = ["queued", "running", "ready", "failed", "expired"] as const;
export type DataExportStatus = (typeof DATA_EXPORT_STATUSES)[number];
/** An export still being prepared: at most one per account, and the one the job (re)builds. */
export const DATA_EXPORT_IN_PROGRESS = ["queued", "running"] as const satisfies readonly DataExportStatus[];
/**
 * A person may ask for one export a day (issue 47 item 6, decision 372): each archive, uploads included, is kept for
 * days, so asking again and again would multiply storage. A failed export does not count; staff may start more.
 */
export const DATA_EXPORT_EVERY_HOURS = 24;

/**
 * "My account gone" (GDPR Art. 17): a confirmed deletion is `pending` through the grace period, then `erased`, unless
 * it was `cancelled` (undone) first (decision 262).
 */
export const ACCOUNT_DELETION_STATUSES = ["pending", "cancelled", "erased"] as const;
export type AccountDeletionStatus = (typeof ACCOUNT_DELETION_STATUSES)[number];

/** Server messages of the My data section, word for word; the consumer app translates them by these strings. */
export const PRIVACY_MESSAGES = {
  exportRunning: "Your data export is already being prepared",
  exportDaily: "You can ask for one data export a day",
  exportNotReady: "This export is not ready to download",
  deletionPending: "Your account is already set to be deleted",
  noDeletion: "There is no account deletion to undo",
  codeNeeded: "Please enter the code we emailed you",
  confirmNeeded: "Please confirm that you want to delete your account",
  noEmail: "This account has no email; confirm the deletion in the app",
} as const;
