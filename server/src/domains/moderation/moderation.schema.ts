import { z } from "zod";
import { boolFilter, dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { MSG } from "../../http/messages.ts";
import { APPEAL_STATUSES, CONTENT_STATES, DECISION_ACTIONS, DECISION_GROUNDS, REPORT_REASONS, REPORT_SOURCES, REPORT_STATUSES, REPORT_TARGETS } from "../../contract/moderation.ts";

const reasonMessage = `reason must be ${REPORT_REASONS.slice(0, -1).join(", ")} or ${REPORT_REASONS.at(-1)}`;

export const reportBody = z.object({
  target_type: z.enum(REPORT_TARGETS, { error: "target_type must be task, upload, character, creator_page or conversation" }),
  target_id: z.coerce.number({ error: "target_id must be a number" }).int().positive({ error: "target_id must be a number" }),
  reason: z.enum(REPORT_REASONS, { error: reasonMessage }),
  details: z.string().trim().max(2000, { error: "details may be at most 2000 characters" }).default(""),
});
export type ReportBody = z.infer<typeof reportBody>;

/** The public notice-and-action form (docs/decisions/150): no account; a removal request needs the sworn statement. */
export const noticeBody = z
  .object({
    url: z.string({ error: "Please give the link to the content" }).trim().min(1, { error: "Please give the link to the content" }).max(2000, { error: "The link may be at most 2000 characters" }),
    reason: z.enum(REPORT_REASONS, { error: reasonMessage }),
    details: z.string().trim().max(2000, { error: "details may be at most 2000 characters" }).default(""),
    name: z.string().trim().max(200, { error: "The name may be at most 200 characters" }).default(""),
    email: z.string({ error: MSG.validEmail }).trim().max(254).pipe(z.email({ error: MSG.validEmail })),
    removal: z.boolean({ error: "removal must be true or false" }).default(true),
    sworn: z.boolean({ error: "sworn must be true or false" }).default(false),
  })
  .refine((b) => !b.removal || b.sworn, { error: "A removal request needs the sworn statement", path: ["sworn"] });
export type NoticeBody = z.infer<typeof noticeBody>;

/** An appeal, by the decision's id and the key its statement of reasons carries (a banned person has no login). */
export const appealBody = z.object({
  id: z.coerce.number({ error: "id must be a number" }).int().positive({ error: "id must be a number" }),
  key: z.string({ error: "key is required" }).min(10, { error: "key is required" }).max(100, { error: "key is required" }),
  text: z.string({ error: "Please explain why the decision is wrong" }).trim().min(10, { error: "Please explain why the decision is wrong (at least 10 characters)" }).max(4000, { error: "The appeal may be at most 4000 characters" }),
});
export type AppealBody = z.infer<typeof appealBody>;

/** A staff takedown or ban: the reason the person reads, and the ground it rests on. */
export const decisionBody = z.object({
  reason: z.string({ error: "Please give a reason" }).trim().min(3, { error: "Please give a reason" }).max(500),
  ground: z.enum(DECISION_GROUNDS, { error: `ground must be one of ${DECISION_GROUNDS.join(", ")}` }).optional(),
});

export const appealFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(APPEAL_STATUSES).optional(),
});
export type AppealFilter = z.infer<typeof appealFilter>;
export const appealSortable = ["id", "createdAt", "status"] as const;

export const decisionFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  action: z.enum(DECISION_ACTIONS).optional(),
  ground: z.enum(DECISION_GROUNDS).optional(),
});
export type DecisionFilter = z.infer<typeof decisionFilter>;
export const decisionSortable = ["id", "createdAt", "action", "ground"] as const;

/** The transparency page's period (either end open). */
export const periodQuery = z.object({
  from: z.iso.datetime({ error: "from must be an ISO date-time", offset: true }).optional(),
  to: z.iso.datetime({ error: "to must be an ISO date-time", offset: true }).optional(),
  format: z.enum(["json", "csv"], { error: "format must be json or csv" }).default("json"),
});

export const reportFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(REPORT_STATUSES).optional(),
  reason: z.enum(REPORT_REASONS).optional(),
  source: z.enum(REPORT_SOURCES).optional(),
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
