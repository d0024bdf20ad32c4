import { z } from "zod";
import { COST_CLASSES, MODEL_FOLDERS, REQUEST_EXTRAS, WORKFLOW_TIERS } from "../../../contract/engines.ts";
import { GENERATION_MODES, type GenerationMode } from "../../../contract/generation.ts";
import { LORA_FAMILIES } from "../../../contract/training.ts";
import { chainSchema } from "./animate-chain.ts";
import { windowsSchema } from "./workflow-windows.ts";

/** What a workflow's <name>.binding.json says (decision 082): which node input receives each control, what the workflow needs, its models. */

const target = z.object({ node: z.string(), input: z.string() });
export const CONTROLS = [
  "image",
  /** LoadImage slots for a character's reference pictures besides `image` (issue 50, decision 385), filled in order. */
  "references",
  "end_image",
  "camera",
  "video",
  "audio",
  "prompt",
  "negative_prompt",
  "seed",
  "width",
  "height",
  "frames",
  "fps",
  "strength",
  "count",
  "prefix",
] as const;
export type Control = (typeof CONTROLS)[number];
/** `motion`: a photo and a video together, the photo to perform the video's motion (issue 33, decision 306). */
export const NEEDS = ["image", "video", ...REQUEST_EXTRAS, "audio"] as const;
export type Need = (typeof NEEDS)[number];
/** Each need in words, for the reason a workflow cannot run a job. */
export const NEED_WORDS: Record<Need, string> = {
  image: "a picture",
  video: "a video",
  end_image: "a last frame",
  camera: "a camera move",
  motion: "a photo to move",
  audio: "a sound",
};

/** What a job may bring that only a workflow needing it can use. */
export const EXTRAS = REQUEST_EXTRAS;

/**
 * What a request of each mode always brings (decision 337): a workflow makes a mode for everyone only where it needs no
 * more than this; one that needs more (a photo in text to image, a last frame) makes it only from what a request adds.
 */
export const MODE_NEEDS: Record<GenerationMode, readonly Need[]> = {
  image_to_video: ["image"],
  role_video: ["image"],
  audio_overlay: ["image", "audio"],
  video_to_video: ["video"],
  text_to_video: [],
  text_to_image: [],
  image_batch: [],
};

/** What a request of each mode may add to its own inputs, which only a workflow needing it runs (decisions 303, 306, 336). */
const MODE_ADDS: Record<GenerationMode, readonly Need[]> = {
  image_to_video: ["end_image", "camera"],
  video_to_video: ["image", "motion"],
  text_to_image: ["image"],
  image_batch: ["image"],
  role_video: [],
  audio_overlay: [],
  text_to_video: [],
};

export const bindingSchema = z.object({
  title: z.string(),
  modes: z.array(z.enum(GENERATION_MODES)).min(1),
  /** Lower runs first when a template names no workflow. */
  priority: z.number().int().default(100),
  output: z.object({ node: z.string(), kind: z.enum(["video", "images"]) }),
  /** A video workflow's SaveImage of the clip's first frame: no ffmpeg on our side for the poster (decision 314). */
  poster: z.object({ node: z.string() }).optional(),
  /**
   * What the workflow must be given: media, a last frame (a transition) or a camera move. A job bringing a last frame
   * or a camera move runs only a workflow that needs it, so neither is ever silently dropped (decision 303).
   */
  needs: z.array(z.enum(NEEDS)).default([]),
  /**
   * A post-step on a finished result (decision 307): run only for an upscale follow-up, never for a new request. An
   * extension needs none of its own: it is an image-to-video job from the clip's last frame, joined on our side.
   */
  followUp: z.enum(["upscale"]).optional(),
  /** Output size: `short` side per resolution (videos), or the side of a square of the same `area` (images); rounded to `multiple`. */
  sizing: z.object({
    by: z.enum(["short", "area"]),
    "480P": z.number().int().positive(),
    "720P": z.number().int().positive(),
    multiple: z.number().int().positive(),
  }),
  fps: z.number().positive().optional(),
  /** Frame counts the model accepts: step × k + plus (Wan: 4k+1, LTX: 8k+1). */
  frames: z.object({ step: z.number().int().positive(), plus: z.number().int().min(0) }).optional(),
  /** A model making a window of frames at a time: its continuation window, repeated as the length needs (decision 305). */
  windows: windowsSchema,
  inputs: z.partialRecord(z.enum(CONTROLS), z.array(target)),
  /** The LoRA slot: loader nodes removed (their outputs wired to the inputs named in `bypass`) when no LoRA is given. */
  lora: z.array(z.object({ node: z.string(), name: z.string(), strength: z.string(), bypass: z.array(z.string()) })).default([]),
  /**
   * The model family a character model must be trained on for this workflow's LoRA slot to load it (decision 395):
   * named where there is a slot, and only there. A LoRA of another family would load no key and change nothing.
   */
  loraFamily: z.enum(LORA_FAMILIES).optional(),
  /**
   * Model files, by slot name: COMFYUI_MODELS=slot=file overrides the default. The manifest an operator fetches by:
   * the folder under ComfyUI's models/, the official download, and its size and SHA-256 where recorded (null: not yet).
   */
  models: z.record(
    z.string(),
    target.extend({
      default: z.string(),
      folder: z.enum(MODEL_FOLDERS),
      url: z.url(),
      size: z.number().int().positive().nullable(),
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .nullable(),
    }),
  ),
  /** Windows of one node chained in the graph to make the job's whole length (decision 306). */
  chain: chainSchema.optional(),
  /** Full sampling or a few-step distilled run of the same models (WORKFLOW_TIERS); a request runs only its tier. */
  tier: z.enum(WORKFLOW_TIERS).default("full"),
  /** GPU memory the workflow needs at its largest size, in GB. */
  gpuMemoryGB: z.number().positive(),
  /** How heavy it is on a GPU; sets its price (COST_CLASS_FACTORS, decision 239). */
  costClass: z.enum(COST_CLASSES),
});
export type Binding = z.infer<typeof bindingSchema>;

/**
 * A binding lists exactly the modes it can make with the inputs it requires (decision 337): each of its needs is one a
 * request of every listed mode brings, or may add. A workflow needing a photo cannot claim text to video.
 */
export function modesFit(b: Binding) {
  for (const mode of b.modes) {
    const never = b.needs.find((n) => !MODE_NEEDS[mode].includes(n) && !MODE_ADDS[mode].includes(n));
    if (never) throw new Error(`it lists mode ${mode}, whose requests never bring ${never}, which it needs`);
  }
}

/**
 * Whether a workflow makes `mode` from what every request of it brings (decision 337): one needing more (a photo in
 * text to image, a last frame) makes it only for a request that adds that, so it cannot sell the mode on its own.
 */
const makesFromOwn = (w: { binding: Binding }, mode: GenerationMode) =>
  w.binding.modes.includes(mode) && w.binding.needs.every((n) => MODE_NEEDS[mode].includes(n));

/**
 * The modes a request can be made in: those some workflow makes from the mode's own inputs; a follow-up's workflow
 * (an upscale) makes none of its own (decision 307).
 */
export const modesOf = (workflows: { binding: Binding }[]): GenerationMode[] =>
  GENERATION_MODES.filter((m) => workflows.some((w) => !w.binding.followUp && makesFromOwn(w, m)));
