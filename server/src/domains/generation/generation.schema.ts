import { z } from "zod";
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
const prompt = z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().max(1000).optional());
/** SPEC.md §5: strength 0-1; how strongly a character model's LoRA is applied (default 1). */
const strength = z.coerce.number({ error: "strength must be a number from 0 to 1" }).min(0, "strength must be 0-1").max(1, "strength must be 0-1").optional();
const aspect = z.enum(["1:1", "3:4", "4:3", "9:16", "16:9"]).default("1:1");

export const picVideoBody = z.object({
  image_id: optionalId,
  video_id: optionalId,
  audio_id: optionalId,
  template_id: optionalId,
  resolution,
  duration,
  idempotency_key: idempotencyKey,
});

export const roleVideoBody = z.object({ role_id: optionalId, strength, prompt, audio_id: optionalId, template_id: optionalId, resolution, duration, idempotency_key: idempotencyKey });
export const textVideoBody = roleVideoBody;
export const textPicBody = z.object({ prompt, role_id: optionalId, strength, image_id: optionalId, template_id: optionalId, aspect, idempotency_key: idempotencyKey });
export const imageBatchBody = textPicBody.extend({ count: z.coerce.number().int().min(1).max(4, "count must be 1-4").default(4) });

export const durationPointsBody = z.object({
  resolution,
  duration,
  template_id: optionalId,
  type: z.enum(["video", "image"]).default("video"),
  count: z.coerce.number().int().min(1).max(4).default(1),
});

/** `type` by name, or as 1 (videos) / 2 (images). */
export const taskListQuery = pageQuery.extend({
  type: z.preprocess((v) => (v === "1" ? "video" : v === "2" ? "image" : v === "" ? undefined : v), z.enum(["video", "image"], { error: "type must be video or image" }).optional()),
});
export const taskIdQuery = z.object({ id });
export const streamQuery = z.object({ id: id.optional() });
export const setPublicBody = z.object({
  id,
  public: z.preprocess((v) => (v === true || v === "1" ? 1 : v === false || v === "0" ? 0 : v), z.union([z.literal(0), z.literal(1)], { error: "public must be 0 or 1" })),
});
export const galleryQuery = pageQuery;

export const deleteResultBody = z.object({ id: z.coerce.number({ error: "id must be a task id" }).int().positive({ error: "id must be a task id" }) });
