import { z } from "zod";
import { MSG } from "../../http/messages.ts";
import { UPLOAD_KINDS } from "../../contract/uploads.ts";
import { SCREENING_STATUSES } from "../../contract/screening.ts";

/** SPEC.md §9 page sizes. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce
    .number()
    .int()
    .refine((n) => [10, 20, 30, 50].includes(n), "limit must be 10, 20, 30 or 50")
    .default(20),
});

/** The uploader's attestation (ARCHITECTURE.md §8): `consent` = 1. Its absence is refused by the service with a clear message. */
const consent = z
  .union([z.string(), z.number(), z.boolean()])
  .optional()
  .transform((v) => v === 1 || v === true || v === "1" || v === "true");
const trimPoint = z.coerce.number({ error: MSG.trimInvalid }).min(0, MSG.trimInvalid).optional();

export const mediaUploadBody = z.object({
  consent,
  start: trimPoint,
  end: trimPoint,
  /** audioFromMedia without a file: take the sound of one of the caller's video uploads. */
  media_id: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional()),
});
export const fileUploadBody = mediaUploadBody.extend({
  upload_type: z.enum(UPLOAD_KINDS, { error: "upload_type must be image, audio or video" }),
});

/** A SPEC.md §9 page of a list: its items, how many there are in all, and which page (of what size) this is. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item), total: z.number(), page: z.number(), limit: z.number() });
}

export const uploadListQuery = pageQuery.extend({ type: z.enum(UPLOAD_KINDS).optional() });
export const idQuery = z.object({ id: z.coerce.number().int().positive() });

// What the routes answer (docs/decisions/229).

/** One of the person's uploads (`UploadView`): after an upload, in their list and in its details. */
export const uploadAnswer = z.object({
  id: z.number(),
  type: z.enum(UPLOAD_KINDS),
  file_url: z.string(),
  thumb_url: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  duration: z.number().nullable(),
  size: z.number(),
  created_at: z.string(),
  review: z.enum(SCREENING_STATUSES).nullable(),
  review_message: z.string().nullable(),
});

/** get /api/ImageUpload/uploadList */
export const uploadListAnswer = pageOf(uploadAnswer);
