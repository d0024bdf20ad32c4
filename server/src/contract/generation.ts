/** Generation words shared by the server, the consumer app and the console. Import-free (docs/decisions/050). */

/** Every generation mode; equals Prisma's GenerationMode enum (tests/architecture/contract.unit.test.ts). */
export const GENERATION_MODES = ["image_to_video", "audio_overlay", "video_to_video", "text_to_video", "role_video", "text_to_image", "image_batch"] as const;
export type GenerationMode = (typeof GENERATION_MODES)[number];

/** The modes whose result is a video (templates of these modes are listed as video templates). */
export const VIDEO_MODES = ["image_to_video", "audio_overlay", "video_to_video", "text_to_video", "role_video"] as const satisfies readonly GenerationMode[];

/** The modes the consumer's video studio offers; image_to_video and audio_overlay share photo templates; text_to_video starts from words. */
export const STUDIO_MODES = ["image_to_video", "audio_overlay", "video_to_video", "text_to_video"] as const satisfies readonly GenerationMode[];
export type StudioMode = (typeof STUDIO_MODES)[number];
/** The modes whose result is a picture. */
export const IMAGE_MODES = ["text_to_image", "image_batch"] as const satisfies readonly GenerationMode[];
export type ImageMode = (typeof IMAGE_MODES)[number];
export const PHOTO_MODES = ["image_to_video", "audio_overlay"] as const satisfies readonly StudioMode[];

/** Task lifecycle; equals Prisma's TaskStatus enum. */
export const TASK_STATUSES = ["queued", "running", "succeeded", "failed", "expired"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Statuses after which a task never changes again. */
export const ENDED_TASK_STATUSES = ["succeeded", "failed", "expired"] as const satisfies readonly TaskStatus[];

/** Output resolutions; the first is the default. */
export const RESOLUTIONS = ["480P", "720P"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** How the home gallery is ordered: newest first, or by likes this week (docs/decisions/299). */
export const GALLERY_SORTS = ["new", "popular"] as const;
export type GallerySort = (typeof GALLERY_SORTS)[number];

/**
 * Follow-ups of a finished result (issue 33 items 5 and 6, docs/decisions/307): a new task made from one's own finished
 * clip or picture. `extend` continues a clip from its last frame (the joined clip is one file); `upscale` makes it 1080p.
 */
export const FOLLOW_UPS = ["extend", "upscale"] as const;
export type FollowUp = (typeof FOLLOW_UPS)[number];
/** The modes whose clip can be extended: video from a photo, a role's photo or words (no sound of its own to carry on). */
export const EXTENDABLE_MODES = ["image_to_video", "role_video", "text_to_video"] as const satisfies readonly GenerationMode[];
/** The short side of an upscaled result, in pixels ("1080p"). */
export const UPSCALE_SHORT_SIDE = 1080;
/**
 * The corners a watermark may sit in, in the order that breaks a tie (docs/decisions/296): bottom right where no face is
 * seen, the usual place of a mark. A result records its mark's corner, or null for none (docs/decisions/316).
 */
export const MARK_CORNERS = ["bottom-right", "bottom-left", "top-right", "top-left"] as const;
export type Corner = (typeof MARK_CORNERS)[number];
