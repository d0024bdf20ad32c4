import { z } from "zod";
import { homeLinkProblem, HOME_LINK_MESSAGES } from "../../contract/home-link.ts";
import {
  PHOTO_VERDICTS,
  REVIEW_DECISIONS,
  TRAINERS,
  TRAINING_MESSAGES as M,
  TRAINING_NAME_MAX,
  TRAINING_PHOTOS_MAX,
  photosExceeded,
  TRAINING_PHOTOS_MIN,
  TRAINING_STATUSES,
} from "../../contract/training.ts";
import { pageOf, pageQuery } from "../uploads/uploads.schema.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";

const blankToUndefined = (v: unknown) => (v === "" || v === null || v === 0 || v === "0" ? undefined : v);
/** A JSON body's numbers are JSON numbers (issue 47). */
const id = z.number().int().positive();

/** A JSON list of upload ids. */
const idList = (message: string) =>
  z
    .array(id, { error: message })
    .min(TRAINING_PHOTOS_MIN, message)
    .superRefine((ids, ctx) => {
      if (ids.length > TRAINING_PHOTOS_MAX) ctx.addIssue({ code: "custom", message: photosExceeded(ids.length, TRAINING_PHOTOS_MAX) });
    });

/** SPEC.md §5's home link, checked by the one rule and words for a model and a creator page (contract/home-link.ts). */
export const homeLinkField = z.preprocess(
  (v) => (typeof v === "string" ? v.trim() : v),
  z.string({ error: HOME_LINK_MESSAGES.required }).superRefine((v, ctx) => {
    const problem = homeLinkProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
);

/** SPEC.md §5 in field order, so the first problem answered is the one the wizard shows first. */
export const trainingSubmitBody = z.object({
  name: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ error: M.nameRequired }).min(1, M.nameRequired).max(TRAINING_NAME_MAX, `The name can be at most ${TRAINING_NAME_MAX} characters`),
  ),
  home_link: homeLinkField,
  cover_id: z.preprocess(blankToUndefined, z.number({ error: M.coverRequired }).int(M.coverRequired).positive(M.coverRequired)),
  photo_ids: idList(M.photosCount).refine((ids) => new Set(ids).size === ids.length, M.photosDistinct),
  /** The live-selfie check this set was verified against (POST /api/Training/selfie). */
  selfie_id: z.preprocess(blankToUndefined, z.string().uuid({ error: M.selfieRequired }).optional()),
  idempotency_key: z.string().trim().min(1).max(100).optional(),
});
export type TrainingSubmitBody = z.infer<typeof trainingSubmitBody>;

export const loraListQuery = pageQuery.extend({
  status: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.enum(TRAINING_STATUSES, { error: `status must be one of ${TRAINING_STATUSES.join(", ")}` }).optional(),
  ),
});
export const modelIdBody = z.object({ id });
/** A query string's id is text, made a number (only JSON bodies keep to JSON numbers, issue 47). */
export const modelIdQuery = z.object({ id: z.coerce.number().int().positive() });
export const homeLinkQuery = z.object({ home_link: z.string().max(100) });
export const webhookParams = z.object({ trainer: z.string().max(40) });

/** A GPU server's fetch of a character model's weights (decision 330): the file by its SHA-256, and the signed link's terms. */
export const gpuWeightsParams = z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, "sha256 must be 64 lowercase hex digits") });
export const gpuWeightsQuery = z.object({
  server: z.string().min(1).max(500),
  expires: z.coerce.number().int(),
  sig: z.string().min(1).max(100),
});

export const reviewBody = z.object({
  decision: z.enum(REVIEW_DECISIONS, { error: `decision must be ${REVIEW_DECISIONS.join(" or ")}` }),
  reason: z.string().trim().max(500).optional(),
});
export const takedownBody = z.object({ reason: z.string().trim().min(1, "Please enter a reason").max(500) });

/** Two camera frames as data URLs (JPEG or PNG), each at most ~1.5 MB of base64; the JSON body limit bounds both. */
const frame = z
  .string({ error: "frames must be two images" })
  .max(2_000_000)
  .regex(/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/, "frames must be data:image URLs");
export const selfieBody = z.object({ frames: z.array(frame, { error: "frames must be two images" }).length(2, "frames must be two images") });
export const checkPhotoBody = z.object({ selfie_id: z.string().uuid({ error: "selfie_id is required" }), upload_id: id });

// What the routes answer (docs/decisions/229).

/** get /api/Training/status */
export const statusAnswer = z.object({
  available: z.boolean(),
  message: z.string().nullable(),
  price: z.number(),
  trainer: z.enum(TRAINERS).nullable(),
  photos_min: z.number(),
  expected_seconds: z.number(),
});

/** get /api/Training/homeLinkFree */
export const homeLinkFreeAnswer = z.object({
  free: z.boolean(),
});

/** post /api/Training/selfie */
export const selfieAnswer = z.object({
  selfie_id: z.string(),
});

/** post /api/Training/checkPhoto */
export const checkPhotoAnswer = z.object({
  upload_id: z.number(),
  verdict: z.enum(PHOTO_VERDICTS),
  message: z.string(),
  faces: z.number(),
  similarity: z.number().nullable(),
  age: z.number().nullable(),
  box: z
    .object({
      x: z.number(),
      y: z.number(),
      width: z.number(),
      height: z.number(),
    })
    .nullable(),
});

/** post /api/Training/submit */
export const submitAnswer = z.object({
  id: z.number(),
  name: z.string(),
  home_link: z.string(),
  status: z.enum(TRAINING_STATUSES),
  usable: z.boolean(),
  state: z.enum(CONTENT_STATES),
  progress: z.number(),
  eta_seconds: z.number(),
  cover_url: z.string().nullable(),
  cost: z.number(),
  error: z.string().nullable(),
  trigger_word: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

/** get /api/Generation/getLoraCharacterList */
export const getLoraCharacterListAnswer = pageOf(submitAnswer);

/** post /api/Training/revoke */
export const revokeAnswer = z.object({
  id: z.number(),
  state: z.string(),
});

/** post /api/Training/webhook/:trainer */
export const trainerAnswer = z.object({
  received: z.boolean(),
});
