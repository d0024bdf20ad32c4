import { z } from "zod";
import { HOLD_CAUSES, SCREENING_DECISIONS, SCREENING_STATUSES } from "../../contract/screening.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";

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
  reason: z.string().trim().max(500).optional().transform((v) => v || undefined),
});
