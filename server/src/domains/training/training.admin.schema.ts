import { z } from "zod";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { TRAINING_STATUSES } from "../../contract/training.ts";
import { idsFilter, intFilter, textFilter } from "../../http/list-filters.ts";
import { checkPhotoAnswer } from "./training.schema.ts";

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

// What the routes answer (docs/decisions/229).

/** character-models list  */
export const characterModelRow = z.unknown();

/** character-models get  */
export const characterModelRecord = z.object({
  id: z.number(),
  userId: z.number(),
  name: z.string(),
  homeLink: z.string(),
  status: z.enum(TRAINING_STATUSES),
  state: z.enum(CONTENT_STATES),
  cost: z.number(),
  error: z.string().nullable(),
  trainer: z.string().nullable(),
  triggerWord: z.string(),
  weightsBytes: z.number().nullable(),
  createdAt: z.date(),
  finishedAt: z.date().nullable(),
  coverUrl: z.string().nullable(),
  consent: z
    .object({
      decision: z.string(),
      minAge: z.number().nullable(),
      reviewedBy: z.number().nullable(),
      reviewReason: z.string().nullable(),
      reviewedAt: z.date().nullable(),
      expiresAt: z.date(),
      selfieUrls: z.array(z.string()),
      photos: z.array(
        z.object({
          uploadId: z.number(),
          url: z.string().nullable(),
          check: checkPhotoAnswer.nullable(),
        }),
      ),
    })
    .nullable(),
});
