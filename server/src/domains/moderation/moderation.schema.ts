import { z } from "zod";
import { boolFilter, dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { CONTENT_STATES, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS } from "../../contract/moderation.ts";

export const reportBody = z.object({
  target_type: z.enum(REPORT_TARGETS, { error: "target_type must be task, upload, character or creator_page" }),
  target_id: z.coerce.number({ error: "target_id must be a number" }).int().positive({ error: "target_id must be a number" }),
  reason: z.enum(REPORT_REASONS, { error: "reason must be underage, non_consensual or other" }),
  details: z.string().trim().max(2000, { error: "details may be at most 2000 characters" }).default(""),
});
export type ReportBody = z.infer<typeof reportBody>;

export const reportFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(REPORT_STATUSES).optional(),
  reason: z.enum(REPORT_REASONS).optional(),
  targetType: z.enum(REPORT_TARGETS).optional(),
  targetUserId: intFilter,
  reporterUserId: intFilter,
  createdAt_gte: dateFilter,
  createdAt_lte: dateFilter,
});
export type ReportFilter = z.infer<typeof reportFilter>;
export const reportSortable = ["id", "createdAt", "reason", "status", "targetType"] as const;

export const banFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  staffId: intFilter,
  /** true: bans still in force; false: lifted ones. */
  active: boolFilter,
});
export type BanFilter = z.infer<typeof banFilter>;
export const banSortable = ["id", "createdAt", "liftedAt", "userId"] as const;

/** Characters and creator pages as moderators list them. */
export const contentFilter = z.strictObject({
  id: idsFilter,
  q: textFilter,
  userId: intFilter,
  state: z.enum(CONTENT_STATES).optional(),
});
export type ContentFilter = z.infer<typeof contentFilter>;
export const characterSortable = ["id", "createdAt", "name", "state", "userId"] as const;
export const creatorPageSortable = ["id", "createdAt", "title", "state", "userId"] as const;
