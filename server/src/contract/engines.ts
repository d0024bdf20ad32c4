/** Engine words shared by the server, the consumer app and the console. Import-free (docs/decisions/050). */

/** The render engines Reverie can run (decision 080). `local` is the CPU draft renderer, always present. */
export const ENGINE_KINDS = ["local", "comfyui", "serverless"] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** Aspect ratios the studio offers (SPEC controls). */
export const STUDIO_ASPECTS = ["9:16", "1:1", "16:9"] as const;
/** Aspect ratios a generation can be asked for: the studio's, and 3:4 and 4:3, which the local engine also draws. */
export const ASPECT_RATIOS = [...STUDIO_ASPECTS, "3:4", "4:3"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/**
 * The studio controls a request may carry beyond its required inputs (issue 31): a prompt (the motion prompt of image
 * to video), a reference picture (image to image), the aspect ratio, the seed, a negative prompt and the strength;
 * and for image to video (issue 33) a last frame to move to (a transition between two photos) and a camera move; for
 * video to video (issue 33) copying the video's motion onto the person's photo (`motion`) besides restyling it.
 * `audio` is listed where the workflow's picture is driven by the sound (audio overlay lip-synced, decision 305); without
 * it the audio is laid under the motion. The quote lists those the engine and workflow that will run honour; the app
 * shows only those.
 */
export const STUDIO_CONTROLS = ["prompt", "image", "end_image", "camera", "motion", "audio", "aspect", "seed", "negative_prompt", "strength"] as const;
export type StudioControl = (typeof STUDIO_CONTROLS)[number];

/**
 * What a request brings that only a workflow needing it runs (issue 33): a transition's last frame, a camera move, and
 * a photo to perform a video's motion (video to video's "copy motion", decision 306).
 */
export const REQUEST_EXTRAS = ["end_image", "camera", "motion"] as const satisfies readonly StudioControl[];
export type RequestExtra = (typeof REQUEST_EXTRAS)[number];

/**
 * The camera moves image to video may ask for (issue 33, decision 303), where the engine has a workflow that makes them:
 * ComfyUI's stock camera poses. None of them orbits the subject; the nearest turns the view about its centre, offered
 * as the rotation it is.
 */
export const CAMERA_MOVES = ["pan_left", "pan_right", "pan_up", "pan_down", "zoom_in", "zoom_out", "rotate_clockwise", "rotate_anticlockwise"] as const;
export type CameraMove = (typeof CAMERA_MOVES)[number];

/** Health of one GPU server or endpoint as the console shows it. */
export const SERVER_HEALTH = ["healthy", "unreachable", "unchecked"] as const;
export type ServerHealth = (typeof SERVER_HEALTH)[number];

/** How each engine's results are labelled in the product. */
export const ENGINE_LABELS: Record<EngineKind, string> = { local: "local draft", comfyui: "AI", serverless: "AI" };

/** ComfyUI's model folders (models/<folder>/) a workflow's files go in; the manifest names one per file. */
export const MODEL_FOLDERS = ["checkpoints", "diffusion_models", "text_encoders", "vae", "loras", "upscale_models", "audio_encoders", "clip_vision"] as const;
export type ModelFolder = (typeof MODEL_FOLDERS)[number];

/**
 * How heavy a workflow is on a GPU, declared by its binding (issue 34, decision 239): its price per image or per
 * started price block of video is the base price times COST_CLASS_FACTORS[class], then times the template's price.
 */
export const COST_CLASSES = ["image", "light_video", "heavy_video"] as const;
export type CostClass = (typeof COST_CLASSES)[number];
export const COST_CLASS_FACTORS: Record<CostClass, number> = { image: 1, light_video: 1, heavy_video: 3 };

/**
 * How a workflow trades time for detail (issue 45, decision 370): `full` samples every step; `fast` is a few-step
 * distilled workflow (a distillation LoRA or checkpoint at CFG 1), several times quicker and cheaper, a little less
 * detailed. A person picks one where both make the request; a template may pin either.
 */
export const WORKFLOW_TIERS = ["full", "fast"] as const;
export type WorkflowTier = (typeof WORKFLOW_TIERS)[number];

/**
 * Which of a request's own inputs made a GPU server fail it (issue 44 item 3): the person's character model (LoRA),
 * their photo, video or sound, or another value of theirs (a node refused a control's value). Such a failure ends that
 * task alone, refunded, with its own message; it never counts against the workflow or the server.
 */
export const FAILED_INPUTS = ["lora", "image", "video", "audio", "value"] as const;
export type FailedInput = (typeof FAILED_INPUTS)[number];
