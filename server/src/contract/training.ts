/** Words of private character-model training, shared by the server, the consumer app and the console. */

/** A model's life: held for a moderator (review), training (doing), then success or failed (refunded). */
export const TRAINING_STATUSES = ["review", "doing", "success", "failed"] as const;
export type TrainingStatus = (typeof TRAINING_STATUSES)[number];

/** Trainer back ends, one adapter file each (server/src/domains/training/trainers/). */
export const TRAINERS = ["replicate", "fal"] as const;
export type TrainerName = (typeof TRAINERS)[number];

/** SPEC.md §5: 10-20 training photos. */
export const TRAINING_PHOTOS_MIN = 10;
export const TRAINING_PHOTOS_MAX = 20;
/** SPEC.md §5: a model name is required; kept short enough for list cells. */
export const TRAINING_NAME_MAX = 40;

/** How a training photo fared in the face checks; the consumer app shows one message per photo. */
export const PHOTO_VERDICTS = ["ok", "no_face", "several_faces", "other_person", "unreadable", "duplicate"] as const;
export type PhotoVerdict = (typeof PHOTO_VERDICTS)[number];

/** A moderator's decision on a training set held for review. */
export const REVIEW_DECISIONS = ["approve", "reject"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/** What people read about training (SPEC.md §5 and §8 word for word where they have one). */
export const TRAINING_MESSAGES = {
  nameRequired: "Please input name",
  coverRequired: "Please upload a cover photo",
  photosCount: "Please upload 10-20 training images",
  photosDistinct: "Each training image can be used once",
  submitFailed: "Training submission failed",
  unavailable: "Training is not available on this server yet",
  selfieRequired: "Please take a live selfie first",
  livenessFailed: "Please turn your head slowly as asked and take the selfie again",
  selfieNoFace: "We could not see exactly one face in your selfie, please take it again",
  photosRefused: "Some photos cannot be used, please replace them",
  coverRefused: "The cover photo must show you alone, like the training photos",
  notReady: "This model is not ready yet",
  notUsable: "This model can no longer be used",
  notCancellable: "This training can no longer be cancelled",
} as const;

/**
 * SPEC.md §5's exceed-count message, naming the selected count against the limit: more than 20 training photos are
 * refused with it (the server) or told with it (the wizard's picker), never dropped silently.
 */
export const photosExceeded = (selected: number, limit: number) => `You selected ${selected} images; at most ${limit} can be used`;

/** One message per photo verdict, shown beside the photo in the wizard. */
export const PHOTO_VERDICT_MESSAGES: Record<PhotoVerdict, string> = {
  ok: "Looks good",
  no_face: "No face found in this photo",
  several_faces: "This photo shows more than one face",
  other_person: "This photo shows someone other than you",
  unreadable: "This photo could not be read",
  duplicate: "This photo is almost the same as another one",
};

/**
 * The model families a character model (LoRA) is trained on (decision 395). A LoRA patches only layers of its own
 * family's model; on another, ComfyUI loads none of its keys, logs "lora key not loaded" and renders without the
 * likeness. So a request with a character model runs only on a workflow whose binding declares the LoRA's family. Wan
 * 2.2's 5B and A14B are apart: their layers differ in width.
 */
export const LORA_FAMILIES = ["flux", "sdxl", "sd15", "wan22-5b", "wan22-14b", "ltxv"] as const;
export type LoraFamily = (typeof LORA_FAMILIES)[number];

/**
 * Each base model a trainer may train on (its `baseModel`, stored with the model), by the family its LoRA loads into:
 * the one place a base model id is read. Reverie's fal and Replicate trainers train on FLUX.1-dev.
 */
export const BASE_MODELS = {
  "black-forest-labs/FLUX.1-dev": "flux",
  "stabilityai/stable-diffusion-xl-base-1.0": "sdxl",
  "stable-diffusion-v1-5/stable-diffusion-v1-5": "sd15",
  "Wan-AI/Wan2.2-TI2V-5B": "wan22-5b",
  "Wan-AI/Wan2.2-I2V-A14B": "wan22-14b",
  "Wan-AI/Wan2.2-T2V-A14B": "wan22-14b",
  "Lightricks/LTX-Video": "ltxv",
} as const satisfies Record<string, LoraFamily>;
export type BaseModel = keyof typeof BASE_MODELS;

/** The family of a stored base model; undefined for none or one not listed, which no workflow takes. */
export const loraFamilyOf = (baseModel: string | null | undefined): LoraFamily | undefined =>
  baseModel && Object.hasOwn(BASE_MODELS, baseModel) ? BASE_MODELS[baseModel as BaseModel] : undefined;
