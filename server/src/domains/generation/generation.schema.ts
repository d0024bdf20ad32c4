import { z } from "zod";
import { ASPECT_RATIOS, CAMERA_MOVES, ENGINE_KINDS, FAILED_INPUTS, REQUEST_EXTRAS, STUDIO_CONTROLS, WORKFLOW_TIERS } from "../../contract/engines.ts";
import { FOLLOW_UPS, GALLERY_SORTS, GENERATION_MODES, RESOLUTIONS, TASK_STATUSES } from "../../contract/generation.ts";
import { MSG } from "../../http/messages.ts";
import { pageQuery } from "../uploads/uploads.schema.ts";

/** SPEC.md §5: a generation may not exceed 40 seconds. */
export const MAX_DURATION_SEC = 40;

/** A JSON body's numbers are JSON numbers; only a query string's become numbers from text (issue 47). */
const id = z.number().int().positive();
const queryId = z.coerce.number().int().positive();
const unsetId = (v: unknown) => (v === "" || v === null || v === 0 || v === "0" ? undefined : v);
const optionalId = z.preprocess(unsetId, id.optional());
const optionalQueryId = z.preprocess(unsetId, queryId.optional());
const resolution = z.enum(RESOLUTIONS, { error: "resolution must be 480P or 720P" }).default("480P");
const duration = z
  .number({ error: "duration must be a number of seconds" })
  .min(1, "duration must be at least 1 second")
  .max(MAX_DURATION_SEC, MSG.durationLimit)
  .default(5);
const idempotencyKey = z.string().trim().min(1).max(100).optional();
const blankToUndefined = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);
const prompt = z.preprocess(blankToUndefined, z.string({ error: "prompt must be text" }).trim().max(1000, "prompt must be at most 1000 characters").optional());
/** Unset: the output follows the source photo's shape (square without one), issue 34. */
const aspect = z.enum(ASPECT_RATIOS, { error: `aspect must be one of ${ASPECT_RATIOS.join(", ")}` }).optional();
/** The controls every mode shares: negative prompt, seed (shown on the result, for re-runs) and strength (SPEC §5: 0-1). */
const shared = {
  negative_prompt: z.preprocess(
    blankToUndefined,
    z.string({ error: "negative_prompt must be text" }).trim().max(1000, "negative_prompt must be at most 1000 characters").optional(),
  ),
  seed: z.preprocess(
    blankToUndefined,
    z
      .number({ error: "seed must be a whole number" })
      .int("seed must be a whole number")
      .min(0, "seed must be 0 or more")
      .max(2 ** 32 - 1, "seed must be below 4294967296")
      .optional(),
  ),
  strength: z.preprocess(blankToUndefined, z.number({ error: "Strength range 0-1" }).min(0, "Strength range 0-1").max(1, "Strength range 0-1").optional()),
  /** "use these settings": the gallery item this request remixes, counted on it (docs/decisions/299) */
  remix_of: optionalId,
};

/** Best (full sampling, the default) or fast (a few-step workflow), where the engine has both for the request (issue 45). */
const tier = z.preprocess(blankToUndefined, z.enum(WORKFLOW_TIERS, { error: `tier must be one of ${WORKFLOW_TIERS.join(", ")}` }).optional());

/** A camera move for image to video (issue 33), where the engine has a workflow that makes it. */
const camera = z.preprocess(blankToUndefined, z.enum(CAMERA_MOVES, { error: `camera must be one of ${CAMERA_MOVES.join(", ")}` }).optional());

export const picVideoBody = z.object({
  image_id: optionalId,
  /** A second photo: the video moves from the first to it (a transition, issue 33). */
  end_image_id: optionalId,
  camera,
  video_id: optionalId,
  audio_id: optionalId,
  template_id: optionalId,
  prompt,
  aspect,
  resolution,
  duration,
  tier,
  ...shared,
  idempotency_key: idempotencyKey,
});

export const roleVideoBody = z.object({
  role_id: optionalId,
  prompt,
  audio_id: optionalId,
  template_id: optionalId,
  aspect,
  resolution,
  duration,
  tier,
  ...shared,
  idempotency_key: idempotencyKey,
});
export const textVideoBody = roleVideoBody;
export const textPicBody = z.object({
  prompt,
  role_id: optionalId,
  image_id: optionalId,
  template_id: optionalId,
  aspect,
  ...shared,
  idempotency_key: idempotencyKey,
});
export const imageBatchBody = textPicBody.extend({
  count: z.number({ error: "count must be 1-4" }).int("count must be 1-4").min(1, "count must be 1-4").max(4, "count must be 1-4").default(4),
});
export type PicVideoBody = z.infer<typeof picVideoBody>;
export type RoleVideoBody = z.infer<typeof roleVideoBody>;
/** textPicSubmit's body, or imageBatchModel's with its count. */
export type ImageBatchBody = Partial<Pick<z.infer<typeof imageBatchBody>, "count">> & z.infer<typeof textPicBody>;

export const durationPointsBody = z.object({
  resolution,
  duration,
  template_id: optionalId,
  type: z.enum(["video", "image"]).default("video"),
  /** A second photo (only whether one is given counts), or a camera move: the workflow that takes it prices the quote. */
  end_image_id: optionalId,
  camera,
  /** Video to video with a photo (only whether one is given counts): the photo performs the video's motion (decision 306). */
  image_id: optionalId,
  /** The mode the app will submit, so the price is that of the workflow it will run (issue 34); the template's, else image to video / text to image. */
  mode: z.enum(GENERATION_MODES, { error: `mode must be one of ${GENERATION_MODES.join(", ")}` }).optional(),
  count: z.number({ error: "count must be 1-4" }).int("count must be 1-4").min(1, "count must be 1-4").max(4, "count must be 1-4").default(1),
  /** The tier the submit will ask for (issue 45): `points` is its price; `tiers` prices each. */
  tier,
  /**
   * The caller's own character model the submit will bring (signed in only): priced and checked as it will run, from
   * its cover on a workflow of its model family (decision 395); `available` is false where none runs it.
   */
  role_id: optionalId,
});
export type DurationPointsBody = z.infer<typeof durationPointsBody>;

/**
 * A follow-up of one of the caller's finished results (decision 307): `extend` its clip by `duration` seconds (the
 * joined clip at most MAX_DURATION_SEC), or `upscale` it to 1080p. The quote takes the same body without the key.
 */
export const followUpQuoteBody = z.object({
  source_id: z.number({ error: "source_id must be a task id" }).int().positive({ error: "source_id must be a task id" }),
  kind: z.enum(FOLLOW_UPS, { error: `kind must be one of ${FOLLOW_UPS.join(", ")}` }),
  duration: z
    .number({ error: "duration must be a number of seconds" })
    .int("duration must be a whole number of seconds")
    .min(1, "duration must be at least 1 second")
    .max(MAX_DURATION_SEC, MSG.durationLimit)
    .default(5),
  /** An extension's tier: its clip's own unless the person picks the other (issue 45); a 1080p upscale has one kind. */
  tier,
});
export const followUpBody = followUpQuoteBody.extend({ idempotency_key: idempotencyKey });
export type FollowUpBody = z.infer<typeof followUpBody>;

/** `type` by name, or as 1 (videos) / 2 (images). */
export const taskListQuery = pageQuery.extend({
  type: z.preprocess(
    (v) => (v === "1" ? "video" : v === "2" ? "image" : v === "" ? undefined : v),
    z.enum(["video", "image"], { error: "type must be video or image" }).optional(),
  ),
  /** 1: only finished, unexpired creations (what a creator can publish or deliver), so pages are full of them */
  finished: z.coerce.number().int().min(0).max(1, "finished must be 0 or 1").optional(),
});
export const taskIdQuery = z.object({ id: queryId });
export const streamQuery = z.object({ id: queryId.optional() });
export const setPublicBody = z.object({
  id,
  public: z.preprocess((v) => (v === true ? 1 : v === false ? 0 : v), z.union([z.literal(0), z.literal(1)], { error: "public must be 0 or 1" })),
});
export const galleryQuery = pageQuery.extend({
  sort: z.preprocess(blankToUndefined, z.enum(GALLERY_SORTS, { error: "sort must be new or popular" }).default("new")),
  mode: z.preprocess(blankToUndefined, z.enum(GENERATION_MODES, { error: `mode must be one of ${GENERATION_MODES.join(", ")}` }).optional()),
  template_id: optionalQueryId,
});
export type GalleryQuery = z.infer<typeof galleryQuery>;
export const galleryItemQuery = z.object({
  id: z.coerce.number({ error: "id must be a gallery item" }).int().positive({ error: "id must be a gallery item" }),
});
export const likeBody = z.object({
  id: z.number({ error: "id must be a gallery item" }).int().positive({ error: "id must be a gallery item" }),
});

export const deleteResultBody = z.object({ id: z.number({ error: "id must be a task id" }).int().positive({ error: "id must be a task id" }) });

// What the routes answer (docs/decisions/229).

/** Every submit: the new task */
export const submittedTask = z.object({
  id: z.number(),
  cost: z.number(),
  status: z.string(),
  paid_with: z.string(),
});

/** post /api/Generation/getDurationPoints */
export const getDurationPointsAnswer = z.object({
  points: z.number(),
  resolution: z.enum(RESOLUTIONS),
  duration: z.number(),
  count: z.number(),
  engine: z.enum(ENGINE_KINDS),
  label: z.string(),
  free_applies: z.boolean(),
  /** false: the engine cannot run this request now (for a template, its exact workflow); a submit would answer 503 */
  available: z.boolean(),
  /** why it cannot run (the message a submit would answer 503 with, which the app translates); null when it can */
  reason: z.string().nullable(),
  /** the studio controls the engine and workflow that will run honour (decision 273); the app shows only these */
  controls: z.array(z.enum(STUDIO_CONTROLS)),
  /**
   * why this request does not fit the workflow its template pins (a second photo, a camera move or the photo copying
   * the motion missing, or one it cannot take), in the words a submit would refuse it with (400); null where it fits
   */
  misfit: z.string().nullable(),
  /** what the workflow the template pins needs besides the photo or video (a transition's second photo): asked for as required */
  required: z.array(z.enum(REQUEST_EXTRAS)),
  /** the tier `points` prices: the one asked for, else best (full) */
  tier: z.enum(WORKFLOW_TIERS),
  /**
   * Each tier the engine has a workflow of for this request, with its price and whether it can run now (issue 45): the
   * studio offers the choice where there are two. Empty on the local engine and for a template pinned to one workflow.
   */
  tiers: z.array(z.object({ tier: z.enum(WORKFLOW_TIERS), points: z.number(), available: z.boolean() })),
});

/** The settings of a request that anyone may take from a shared creation: its words and controls, no source file. */
const remixableSettings = {
  prompt: z.string().optional(),
  negative_prompt: z.string().optional(),
  seed: z.number().optional(),
  strength: z.number().optional(),
  aspect: z.enum(ASPECT_RATIOS).optional(),
  camera: z.enum(CAMERA_MOVES).optional(),
  count: z.number().optional(),
  resolution: z.string().optional(),
  duration: z.number().optional(),
};

/** One generation task as the caller sees it: `status` in the SPEC's words, `state` its key, and, when done, its URLs. */
export const taskView = z.object({
  estimate_seconds: z.number().nullable(),
  queue_position: z.number(),
  id: z.number(),
  created_at: z.string(),
  createtime: z.number(),
  status: z.string(),
  state: z.enum(TASK_STATUSES),
  action: z.enum(GENERATION_MODES),
  progress: z.number(),
  cost: z.number(),
  paid_with: z.string(),
  resolution: z.string().nullable(),
  duration: z.number().nullable(),
  template_id: z.number().nullable(),
  engine: z.string(),
  label: z.string(),
  seed: z.number().nullable(),
  /** the request that makes this task again with the same settings */
  settings: z.object({
    template_id: z.number().nullable(),
    image_id: z.number().optional(),
    end_image_id: z.number().optional(),
    video_id: z.number().optional(),
    audio_id: z.number().optional(),
    role_id: z.number().optional(),
    ...remixableSettings,
  }),
  video_url: z.string().nullable(),
  image_url: z.string().nullable(),
  image_urls: z.array(z.string()),
  poster_url: z.string().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  msg: z.string().nullable(),
  expires_at: z.string().nullable(),
  public: z.number(),
  /** a follow-up's kind and the result it was made from (null once that is deleted), decision 307 */
  follow_up: z.enum(FOLLOW_UPS).nullable(),
  follow_up_of: z.number().nullable(),
  /** the follow-ups this finished result can take now, which the app offers (issue 46 item 9); none on a local draft */
  follow_ups: z.array(z.enum(FOLLOW_UPS)),
  /** the finished result's files carry the watermark of free output (decision 296) */
  watermarked: z.boolean(),
  /** a failed task's own input that failed it, whose message `msg` is (decision 335); null otherwise */
  failed_input: z.enum(FAILED_INPUTS).nullable(),
});

/** post /api/Generation/followUpPoints: the price of a follow-up, and whether it can run now (else why not) */
export const followUpQuoteAnswer = z.object({
  points: z.number(),
  kind: z.enum(FOLLOW_UPS),
  /** an extension's seconds; an upscale's: the clip's own (0 for a picture) */
  duration: z.number(),
  /** the longest extension this clip takes (MAX_DURATION_SEC less its length); 0 for a picture */
  max_duration: z.number(),
  engine: z.enum(ENGINE_KINDS),
  label: z.string(),
  available: z.boolean(),
  /** why it cannot run (a message the app translates); null when it can */
  reason: z.string().nullable(),
});

/** get /api/Generation/uploadLists */
export const uploadListsAnswer = z.object({ list: z.array(taskView), total: z.number(), page: z.number(), limit: z.number() });

/** The `data:` of a `progress` event: the whole task when it ends (or in the first snapshot), else its progress. */
export const progressData = z.union([taskView, z.object({ id: z.number(), status: z.string(), state: z.enum(TASK_STATUSES), progress: z.number() })]);

/** post /api/Generation/setPublic */
export const setPublicAnswer = z.object({
  id: z.number(),
  public: z.number(),
});

/** post /api/Generation/deleteTask */
export const deleteTaskAnswer = z.object({});

/** A shared creation as everyone sees it: no owner beyond the display name, no cost, engine or source files. */
const galleryItem = z.object({
  id: z.number(),
  created_at: z.string(),
  createtime: z.number(),
  action: z.enum(GENERATION_MODES),
  template_id: z.number().nullable(),
  video_url: z.string().nullable(),
  image_url: z.string().nullable(),
  poster_url: z.string().nullable(),
  nickname: z.string(),
  likes: z.number(),
  /** 1 when the caller has liked it (0 without a login) */
  liked: z.number(),
  remixes: z.number(),
  /** the owner's creator page while it is up, to open and follow (docs/decisions/309); null when they have none */
  creator_link: z.string().nullable(),
  /** 1 when the caller follows that page */
  following: z.number(),
});

/** get /api/Index/gallery */
export const galleryAnswer = z.object({
  list: z.array(galleryItem),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});

/** get /api/Index/galleryItem: the item with the settings "use these settings" fills in, and the item it remixes */
export const galleryItemAnswer = galleryItem.extend({
  settings: z.object(remixableSettings),
  /** the shown gallery item this one was made from, by its display name; null when none or no longer shown */
  remix_of: z.object({ id: z.number(), nickname: z.string() }).nullable(),
});

/** post /api/Gallery/like and /api/Gallery/unlike */
export const likeAnswer = z.object({ id: z.number(), likes: z.number(), liked: z.number() });

/** get /api/ImageUpload/user_free_num */
export const userFreeNumAnswer = z.object({
  free_num: z.number(),
  num: z.number(),
});
