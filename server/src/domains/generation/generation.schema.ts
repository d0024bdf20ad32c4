import { z } from "zod";
import { ASPECT_RATIOS } from "../../contract/engines.ts";
import { RESOLUTIONS } from "../../contract/generation.ts";
import { MSG } from "../../http/messages.ts";
import { pageQuery } from "../uploads/uploads.schema.ts";

/** SPEC.md §5: a generation may not exceed 40 seconds. */
export const MAX_DURATION_SEC = 40;

const id = z.coerce.number().int().positive();
const optionalId = z.preprocess((v) => (v === "" || v === null || v === 0 || v === "0" ? undefined : v), id.optional());
const resolution = z.enum(RESOLUTIONS, { error: "resolution must be 480P or 720P" }).default("480P");
const duration = z.coerce.number({ error: "duration must be a number of seconds" }).min(1, "duration must be at least 1 second").max(MAX_DURATION_SEC, MSG.durationLimit).default(5);
const idempotencyKey = z.string().trim().min(1).max(100).optional();
const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "") || v === null ? undefined : v;
const prompt = z.preprocess(blankToUndefined, z.string({ error: "prompt must be text" }).trim().max(1000, "prompt must be at most 1000 characters").optional());
const aspect = z.enum(ASPECT_RATIOS, { error: `aspect must be one of ${ASPECT_RATIOS.join(", ")}` }).default("1:1");
/** The controls every mode shares: negative prompt, seed (shown on the result, for re-runs) and strength (SPEC §5: 0-1). */
const shared = {
  negative_prompt: z.preprocess(blankToUndefined, z.string({ error: "negative_prompt must be text" }).trim().max(1000, "negative_prompt must be at most 1000 characters").optional()),
  seed: z.preprocess(blankToUndefined, z.coerce.number({ error: "seed must be a whole number" }).int("seed must be a whole number").min(0, "seed must be 0 or more").max(2 ** 32 - 1, "seed must be below 4294967296").optional()),
  strength: z.preprocess(blankToUndefined, z.coerce.number({ error: "Strength range 0-1" }).min(0, "Strength range 0-1").max(1, "Strength range 0-1").optional()),
};

const videoAspect = z.enum(ASPECT_RATIOS, { error: `aspect must be one of ${ASPECT_RATIOS.join(", ")}` }).optional();

export const picVideoBody = z.object({
  image_id: optionalId,
  video_id: optionalId,
  audio_id: optionalId,
  template_id: optionalId,
  prompt,
  aspect: videoAspect,
  resolution,
  duration,
  ...shared,
  idempotency_key: idempotencyKey,
});

export const roleVideoBody = z.object({ role_id: optionalId, prompt, audio_id: optionalId, template_id: optionalId, aspect: videoAspect, resolution, duration, ...shared, idempotency_key: idempotencyKey });
export const textVideoBody = roleVideoBody;
export const textPicBody = z.object({ prompt, role_id: optionalId, image_id: optionalId, template_id: optionalId, aspect, ...shared, idempotency_key: idempotencyKey });
export const imageBatchBody = textPicBody.extend({ count: z.coerce.number({ error: "count must be 1-4" }).int("count must be 1-4").min(1, "count must be 1-4").max(4, "count must be 1-4").default(4) });
export type PicVideoBody = z.infer<typeof picVideoBody>;
export type RoleVideoBody = z.infer<typeof roleVideoBody>;
/** textPicSubmit's body, or imageBatchModel's with its count. */
export type ImageBatchBody = Partial<Pick<z.infer<typeof imageBatchBody>, "count">> & z.infer<typeof textPicBody>;

export const durationPointsBody = z.object({
  resolution,
  duration,
  template_id: optionalId,
  type: z.enum(["video", "image"]).default("video"),
  count: z.coerce.number({ error: "count must be 1-4" }).int("count must be 1-4").min(1, "count must be 1-4").max(4, "count must be 1-4").default(1),
});
export type DurationPointsBody = z.infer<typeof durationPointsBody>;

/** `type` by name, or as 1 (videos) / 2 (images). */
export const taskListQuery = pageQuery.extend({
  type: z.preprocess((v) => (v === "1" ? "video" : v === "2" ? "image" : v === "" ? undefined : v), z.enum(["video", "image"], { error: "type must be video or image" }).optional()),
  /** 1: only finished, unexpired creations (what a creator can publish or deliver), so pages are full of them */
  finished: z.coerce.number().int().min(0).max(1, "finished must be 0 or 1").optional(),
});
export const taskIdQuery = z.object({ id });
export const streamQuery = z.object({ id: id.optional() });
export const setPublicBody = z.object({
  id,
  public: z.preprocess((v) => (v === true || v === "1" ? 1 : v === false || v === "0" ? 0 : v), z.union([z.literal(0), z.literal(1)], { error: "public must be 0 or 1" })),
});
export const galleryQuery = pageQuery;

export const deleteResultBody = z.object({ id: z.coerce.number({ error: "id must be a task id" }).int().positive({ error: "id must be a task id" }) });
