/**
 * Upload screening and prompt rules (issue 19): the words shared by the server, the console and the consumer app.
 * Import-free (docs/decisions/050). The apps translate the messages by these exact English strings.
 */

/**
 * What screening decided about an upload. Equals Prisma's ScreeningStatus enum. `clear`: usable (no face, or every
 * face's apparent age at or above the threshold); `held`: waits for a moderator; `approved` / `rejected`: the
 * moderator's decision on a held upload.
 */
export const SCREENING_STATUSES = ["clear", "held", "approved", "rejected"] as const;
export type ScreeningStatus = (typeof SCREENING_STATUSES)[number];

/** Statuses whose upload may be used in a submit. */
export const USABLE_SCREENING_STATUSES = ["clear", "approved"] as const satisfies readonly ScreeningStatus[];

/** Why an upload was held: an apparent age under the threshold, or the face model failed (it holds, never passes). */
export const HOLD_CAUSES = ["apparent_age", "model_failed"] as const;
export type HoldCause = (typeof HOLD_CAUSES)[number];

/** A moderator's decision on a held upload. */
export const SCREENING_DECISIONS = ["approve", "reject"] as const;
export type ScreeningDecision = (typeof SCREENING_DECISIONS)[number];

/**
 * The prompt rule a refused prompt, message or character card broke (the reason code of a refusal): sexual words
 * with words placing someone under 18, age-play, terms that are abuse material by themselves, a character described
 * as under 18.
 */
export const PROMPT_RULES = ["minor_sexual", "age_play", "csam_term", "minor_character"] as const;
export type PromptRule = (typeof PROMPT_RULES)[number];

/** `data.reason` of a refusal by screening. */
export const SCREENING_REFUSALS = ["upload_held", "upload_rejected", "prompt_refused", "blocked_media"] as const;
export type ScreeningRefusal = (typeof SCREENING_REFUSALS)[number];

/** `data` of a refused prompt (HTTP 400). */
export interface PromptRefusal {
  reason: Extract<ScreeningRefusal, "prompt_refused">;
  rule: PromptRule;
}

export const SCREENING_MESSAGES = {
  /** answered with a held upload, and when a held upload is named in a submit */
  held: "This photo is being reviewed by our team before it can be used. Nothing has been charged.",
  heldVideo: "This video is being reviewed by our team before it can be used. Nothing has been charged.",
  rejected: "This upload was rejected in review and cannot be used.",
  blocked: "This file cannot be used: it matches content removed from Reverie.",
  promptRefused: "This prompt is not allowed: sexual content involving minors is refused. Nothing has been charged.",
} as const;

/** How a perceptual hash came onto the blocklist: a moderator's takedown, or a list a moderator imported. */
export const BLOCK_SOURCES = ["takedown", "import"] as const;
export type BlockSource = (typeof BLOCK_SOURCES)[number];

/** What matched a blocked hash: an upload (refused) or a generated output (the task fails and is refunded). */
export const BLOCK_HIT_KINDS = ["upload", "output"] as const;
export type BlockHitKind = (typeof BLOCK_HIT_KINDS)[number];
