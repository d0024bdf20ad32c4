import { z } from "zod";
import { boolFilter, dateFilter, idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { MSG } from "../../http/messages.ts";
import {
  APPEAL_STATUSES,
  CONTENT_STATES,
  DECISION_ACTIONS,
  DECISION_GROUNDS,
  REPORT_REASONS,
  REPORT_SOURCES,
  REPORT_STATUSES,
  REPORT_TARGETS,
} from "../../contract/moderation.ts";
import { UPLOAD_KINDS } from "../../contract/uploads.ts";

const reasonMessage = `reason must be ${REPORT_REASONS.slice(0, -1).join(", ")} or ${REPORT_REASONS.at(-1)}`;

export const reportBody = z.object({
  target_type: z.enum(REPORT_TARGETS, { error: "target_type must be task, upload, character, creator_page, conversation or message" }),
  target_id: z.number({ error: "target_id must be a number" }).int().positive({ error: "target_id must be a number" }),
  reason: z.enum(REPORT_REASONS, { error: reasonMessage }),
  details: z.string().trim().max(2000, { error: "details may be at most 2000 characters" }).default(""),
});
export type ReportBody = z.infer<typeof reportBody>;

/** The public notice-and-action form (docs/decisions/150): no account; a removal request needs the sworn statement. */
export const noticeBody = z
  .object({
    url: z
      .string({ error: "Please give the link to the content" })
      .trim()
      .min(1, { error: "Please give the link to the content" })
      .max(2000, { error: "The link may be at most 2000 characters" }),
    reason: z.enum(REPORT_REASONS, { error: reasonMessage }),
    details: z.string().trim().max(2000, { error: "details may be at most 2000 characters" }).default(""),
    name: z.string().trim().max(200, { error: "The name may be at most 200 characters" }).default(""),
    email: z
      .string({ error: MSG.validEmail })
      .trim()
      .max(254)
      .pipe(z.email({ error: MSG.validEmail })),
    removal: z.boolean({ error: "removal must be true or false" }).default(true),
    sworn: z.boolean({ error: "sworn must be true or false" }).default(false),
  })
  .refine((b) => !b.removal || b.sworn, { error: "A removal request needs the sworn statement", path: ["sworn"] });
export type NoticeBody = z.infer<typeof noticeBody>;

/** An appeal, by the decision's id and the key its statement of reasons carries (a banned person has no login). */
export const appealBody = z.object({
  id: z.number({ error: "id must be a number" }).int().positive({ error: "id must be a number" }),
  key: z.string({ error: "key is required" }).min(10, { error: "key is required" }).max(100, { error: "key is required" }),
  text: z
    .string({ error: "Please explain why the decision is wrong" })
    .trim()
    .min(10, { error: "Please explain why the decision is wrong (at least 10 characters)" })
    .max(4000, { error: "The appeal may be at most 4000 characters" }),
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

// What the routes answer (docs/decisions/229).

/** characters list  */
export const characterRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  description: z.string(),
  name: z.string(),
  updatedAt: z.date(),
  userId: z.number().nullable(),
  state: z.enum(CONTENT_STATES),
  personality: z.string(),
  scenario: z.string(),
  greeting: z.string(),
  tags: z.array(z.string()),
  age: z.number().nullable(),
  exampleLines: z.array(z.string()),
  tier: z.string(),
  avatarKey: z.string().nullable(),
  isPublic: z.boolean(),
  conversationCount: z.number(),
});

/** characters action takedown */
export const characterTakedownAnswer = z.union([
  z.object({
    id: z.number(),
    userId: z.number().nullable(),
    state: z.enum(CONTENT_STATES),
  }),
  z.object({
    id: z.number(),
    userId: z.number(),
    state: z.enum(CONTENT_STATES),
  }),
]);

/** creator-pages list  */
export const creatorPageRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  title: z.string(),
  updatedAt: z.date(),
  userId: z.number(),
  state: z.enum(CONTENT_STATES),
  homeLink: z.string(),
  characterModelId: z.number().nullable(),
  bio: z.string(),
  avatarUrl: z.string().nullable(),
  socialLinks: z.unknown(),
  premiumOffer: z.string().nullable(),
  premiumPriceMinor: z.number().nullable(),
  requestPrice: z.number().nullable(),
  membershipPrice: z.number().nullable(),
});

/** A report as it is stored. */
const reportRow = z.object({
  id: z.number(),
  source: z.enum(REPORT_SOURCES),
  targetType: z.enum(REPORT_TARGETS),
  targetId: z.number(),
  createdAt: z.date(),
  reason: z.enum(REPORT_REASONS),
  status: z.enum(REPORT_STATUSES),
  details: z.string(),
  targetUserId: z.number().nullable(),
  reporterUserId: z.number().nullable(),
  suspendedContent: z.boolean(),
  resolvedAt: z.date().nullable(),
  resolvedById: z.number().nullable(),
  reportedUrl: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  swornAt: z.date().nullable(),
});

/** reports list: the report with how long it has waited against its target */
export const reportRecord = reportRow.extend({
  ageSeconds: z.number(),
  targetSeconds: z.number(),
  breached: z.boolean(),
});

/** reports view preview */
export const reportPreviewAnswer = z.object({
  id: z.number(),
  media: z
    .object({
      kind: z.enum(UPLOAD_KINDS),
      url: z.string(),
      /** A still of the file (a video's poster), shown before it plays; null when there is none. */
      posterUrl: z.string().nullable(),
    })
    .nullable(),
});

/** reports list: each row with a thumbnail of the reported content (a video's poster, an image), null when there is none */
export const reportListRow = reportRecord.extend({ thumbUrl: z.string().nullable() });

/** reports action dismiss: the report as dismissed */
export const reportDismissAnswer = reportRow;

/** bans list  */
export const banRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  staffId: z.number().nullable(),
  reason: z.string(),
  userId: z.number(),
  liftedAt: z.date().nullable(),
  liftedById: z.number().nullable(),
  /** new accounts that share only a weak signal (the browser fingerprint) with this one while banned: for a moderator to judge */
  flaggedUserIds: z.array(z.number()),
});

/** decisions list  */
export const decisionRow = z.object({
  id: z.number(),
  targetType: z.enum(REPORT_TARGETS).nullable(),
  targetId: z.number().nullable(),
  createdAt: z.date(),
  action: z.enum(DECISION_ACTIONS),
  userId: z.number(),
  ground: z.enum(DECISION_GROUNDS),
  decidedById: z.number().nullable(),
  explanation: z.string(),
  automated: z.boolean(),
  banId: z.number().nullable(),
  reportId: z.number().nullable(),
  appealKey: z.string(),
  reversedAt: z.date().nullable(),
});

/** appeals list  */
export const appealRow = z.object({
  id: z.number(),
  createdAt: z.date(),
  status: z.enum(APPEAL_STATUSES),
  decidedAt: z.date().nullable(),
  decidedById: z.number().nullable(),
  text: z.string(),
  decisionId: z.number(),
  decisionReason: z.string().nullable(),
});

/** decisions get: the decision with its appeal, if one was made */
export const decisionRecord = decisionRow.extend({ appeal: appealRow.nullable() });

/** appeals get: the appeal with the decision it contests */
export const appealRecord = appealRow.extend({ decision: decisionRow });

/** post /api/report */
export const reportAnswer = z.object({
  id: z.number(),
});

/** get /api/notices */
export const noticesAnswer = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      action: z.string(),
      ground: z.string(),
      explanation: z.string(),
      automated: z.boolean(),
      target_type: z.string().nullable(),
      target_id: z.number().nullable(),
      created_at: z.string(),
      reversed_at: z.string().nullable(),
      appeal_key: z.string(),
      appeal: z
        .object({
          status: z.string(),
          answer: z.string().nullable(),
          decided_at: z.string().nullable(),
        })
        .nullable(),
    }),
  ),
});

/** post /api/notices/appeal */
export const appealAnswer = z.object({
  id: z.number(),
  status: z.enum(APPEAL_STATUSES),
});

/** One count per key (a reason, a source, an outcome...) of the transparency report. */
const tally = z.array(z.object({ key: z.string(), count: z.number() }));

/** get /admin/api/transparency */
export const transparencyAnswer = z.object({
  from: z.string().nullable(),
  to: z.string().nullable(),
  reports_by_reason: tally,
  reports_by_source: tally,
  reports_by_outcome: tally,
  decisions_by_action: tally,
  decisions_by_ground: tally,
  decisions_by_automation: tally,
  appeals_by_outcome: tally,
  time_to_action: z.object({
    resolved: z.number(),
    median_seconds: z.number().nullable(),
    p90_seconds: z.number().nullable(),
    breaches: z.number(),
    open_breaching: z.number(),
    target_hours: z.number(),
  }),
});
