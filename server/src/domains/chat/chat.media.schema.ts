import { z } from "zod";
import { CHAT_MEDIA_SECONDS, type ChatMediaKind } from "../../contract/chat.ts";
import type { ChatTool } from "./backends/backend.ts";

const KINDS = Object.keys(CHAT_MEDIA_SECONDS) as [ChatMediaKind, ...ChatMediaKind[]];

const mustBe = { error: "conversation_id must be a number" };
/** A JSON body's id is a JSON number (issue 47); a query string's is text, made a number. */
const conversationId = z.number(mustBe).int(mustBe).positive(mustBe);
const conversationIdParam = z.coerce.number(mustBe).int(mustBe).positive(mustBe);

/** requestMedia: a picture or a clip of the conversation's character; without `prompt` the recent lines give the scene. */
export const requestMediaBody = z.object({
  conversation_id: conversationId,
  kind: z.enum(KINDS, { error: `kind must be ${KINDS.join(" or ")}` }),
  prompt: z.preprocess(
    (v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v),
    z.string({ error: "prompt must be text" }).trim().max(500, { error: "prompt may be at most 500 characters" }).optional(),
  ),
  /** A retried request with the same key is the same picture: never charged twice. */
  idempotency_key: z.string().trim().min(1).max(100).optional(),
});
export type RequestMediaBody = z.infer<typeof requestMediaBody>;

export const mediaQuoteQuery = z.object({ conversation_id: conversationIdParam });

const messageMustBe = { error: "message_id must be a number" };
/** acceptOffer: the person's tap on the character's offer; only then is it rendered and charged (issue 50 item 3). */
export const acceptOfferBody = z.object({
  message_id: z.number(messageMustBe).int(messageMustBe).positive(messageMustBe),
});

/**
 * What the chat model fills in when it offers a picture (a tool call's arguments): the kind and the scene. Only
 * these (anything else and the offer is dropped): the price is the server's (the model may propose the scene, never the price).
 */
export const offerArguments = z.strictObject({
  kind: z.enum(KINDS).describe("image: a photo of yourself; video: a 5-second clip of yourself"),
  scene: z.string().trim().min(1).max(500).describe("What it shows, in a few words: where you are, what you wear and do"),
});
export type OfferArguments = z.infer<typeof offerArguments>;

const { $schema: _, ...offerParameters } = z.toJSONSchema(offerArguments);

/** The tool a reply is offered where the back end takes tools and chat media is on for the person. */
export const OFFER_TOOL: ChatTool = {
  name: "offer_picture",
  description:
    "Offer the person a picture or a short clip of yourself in the current scene, when they ask for one or it fits the moment. They see the offer and decide; do not mention prices.",
  parameters: offerParameters,
};

// What the routes answer (docs/decisions/229).

/** A character's picture or clip as its message carries it (chat.media.ts). */
export const chatMediaView = z.object({
  kind: z.enum(KINDS),
  request: z.string(),
  task_id: z.number().nullable(),
  /** offered (the character's offer, not yet taken), queued, running, succeeded, failed, expired; removed when taken down or its task is gone */
  state: z.string(),
  progress: z.number(),
  cost: z.number(),
  label: z.string(),
  /** the local engine's draft, not a picture by an image model */
  draft: z.boolean(),
  image_url: z.string().nullable(),
  video_url: z.string().nullable(),
  poster_url: z.string().nullable(),
  /** why it is not shown (failed, still rendering), in the words the app translates */
  msg: z.string().nullable(),
  estimate_seconds: z.number().nullable(),
});
export type ChatMediaView = z.infer<typeof chatMediaView>;

const kindQuote = z.object({ points: z.number(), engine: z.string(), label: z.string(), draft: z.boolean(), available: z.boolean() }).nullable();

/** get /api/RoleChat/mediaQuote: the price of each kind before the tap; null where it cannot be made now */
export const mediaQuoteAnswer = z.object({ available: z.boolean(), message: z.string(), image: kindQuote, video: kindQuote });
