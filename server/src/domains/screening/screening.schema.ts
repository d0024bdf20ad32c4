import { z } from "zod";
import { BLOCK_SOURCES, HOLD_CAUSES, SCREENING_DECISIONS, SCREENING_STATUSES } from "../../contract/screening.ts";
import { CONTENT_STATES, REPORT_TARGETS } from "../../contract/moderation.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";
import { UPLOAD_KINDS } from "../../contract/uploads.ts";

/** The console's screening list; `status: "held"` is the review queue. */
export const screeningFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(SCREENING_STATUSES).optional(),
  holdCause: z.enum(HOLD_CAUSES).optional(),
  userId: intFilter,
  uploadId: intFilter,
});
export type ScreeningFilter = z.infer<typeof screeningFilter>;
export const screeningSortable = ["id", "createdAt", "youngestAge", "status", "userId"] as const;

/** Approve, or reject with a reason (the service refuses a rejection without one). */
export const screeningReviewBody = z.object({
  decision: z.enum(SCREENING_DECISIONS, { error: `decision must be ${SCREENING_DECISIONS.join(" or ")}` }),
  reason: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => v || undefined),
});

/** The console's blocklist: by source and by the case (content taken down). */
export const blockedHashFilter = z.strictObject({
  id: idsFilter,
  source: z.enum(BLOCK_SOURCES).optional(),
  targetType: z.enum(REPORT_TARGETS).optional(),
  targetId: intFilter,
});
export type BlockedHashFilter = z.infer<typeof blockedHashFilter>;
export const blockedHashSortable = ["id", "createdAt", "source"] as const;

/** Lines one import may carry (the API's 1 MB JSON body holds about 58,000). */
export const IMPORT_MAX_LINES = 50_000;

/** A moderator's import: one 64-bit hash (16 hex digits) a line, and a note saying where the list comes from. */
export const importHashesBody = z.object({
  hashes: z.string({ error: "Paste at least one hash" }).max(IMPORT_MAX_LINES * 19, `At most ${IMPORT_MAX_LINES} hashes per import`),
  note: z
    .string()
    .trim()
    .max(500)
    .optional()
    .transform((v) => v || null),
});

// What the routes answer (docs/decisions/229).

/** blocked-hashes list  */
export const blockedHashRecord = z.object({
  hash: z.string(),
  hits: z.number(),
});

/** blocked-hashes create  */
export const blockedHasheRecord2 = z.object({
  added: z.number(),
  duplicates: z.number(),
  lines: z.number(),
  id: z.number(),
});

/** upload-screenings list  */
export const uploadScreeningRow = z.unknown();

/** upload-screenings get  */
export const uploadScreeningRecord = z.object({
  kind: z.enum(UPLOAD_KINDS),
  uploadState: z.enum(CONTENT_STATES),
  width: z.number().nullable(),
  height: z.number().nullable(),
  previewUrl: z.string().nullable(),
  fileUrl: z.string().nullable(),
  id: z.number(),
  createdAt: z.date(),
  userId: z.number(),
  status: z.enum(SCREENING_STATUSES),
  reviewedBy: z.number().nullable(),
  reviewReason: z.string().nullable(),
  reviewedAt: z.date().nullable(),
  uploadId: z.number(),
  holdCause: z.string().nullable(),
  youngestAge: z.number().nullable(),
  faces: z.number().nullable(),
  framesChecked: z.number(),
});
