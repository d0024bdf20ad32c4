import { z } from "zod";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { TRAINING_STATUSES } from "../../contract/training.ts";
import { idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";

/** Character models as moderators list them; `status: "review"` is the training review queue. */
export const modelFilter = z.strictObject({
  id: idsFilter,
  q: textFilter,
  userId: intFilter,
  status: z.enum(TRAINING_STATUSES).optional(),
  state: z.enum(CONTENT_STATES).optional(),
});
export type ModelFilter = z.infer<typeof modelFilter>;
export const modelSortable = ["id", "createdAt", "name", "status", "state", "userId"] as const;
