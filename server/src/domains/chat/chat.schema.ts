import { z } from "zod";
import { CHARACTER_SORTS } from "../../contract/chat.ts";
import { MSG } from "../../http/messages.ts";
import { pageOf, pageQuery, uploadAnswer } from "../uploads/uploads.schema.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { chatMediaView } from "./chat.media.schema.ts";

/** A JSON body's id is a JSON number; a query string's is text made a number (issue 47). */
const id = (name: string, number: (p: { error: string }) => z.ZodNumber = z.number) =>
  number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a number` })
    .positive({ error: `${name} must be a number` });
const queryId = (name: string) => id(name, z.coerce.number as (p: { error: string }) => z.ZodNumber);
const optionalId = (name: string) => z.preprocess((v) => (v === "" || v === null || v === 0 || v === "0" ? undefined : v), id(name).optional());
const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, { error: `${name} may be at most ${max} characters` });
const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal("0"), z.literal("1")], { error: "is_public must be 0 or 1" })
  .transform((v) => v === true || v === 1 || v === "1");

/** Limits of a character card: together they fit well inside the smallest context size allowed (512 tokens is not the target; 4k+ is). */
export const CARD_LIMITS = {
  name: 40,
  description: 300,
  personality: 1000,
  scenario: 1000,
  greeting: 1000,
  exampleLine: 300,
  exampleLines: 8,
  tag: 24,
  tags: 8,
} as const;

const characterFields = {
  name: text("name", CARD_LIMITS.name).min(1, { error: "Please enter a name" }),
  description: text("description", CARD_LIMITS.description).default(""),
  personality: text("personality", CARD_LIMITS.personality).default(""),
  scenario: text("scenario", CARD_LIMITS.scenario).default(""),
  greeting: text("greeting", CARD_LIMITS.greeting).default(""),
  example_lines: z
    .array(text("each example line", CARD_LIMITS.exampleLine).min(1, { error: "example lines may not be empty" }), {
      error: "example_lines must be a list of lines",
    })
    .max(CARD_LIMITS.exampleLines, { error: `at most ${CARD_LIMITS.exampleLines} example lines` })
    .default([]),
  tags: z
    .array(
      text("each tag", CARD_LIMITS.tag)
        .min(1, { error: "tags may not be empty" })
        .transform((t) => t.toLowerCase()),
      { error: "tags must be a list of words" },
    )
    .max(CARD_LIMITS.tags, { error: `at most ${CARD_LIMITS.tags} tags` })
    .default([]),
  /** Every character is an adult: an age, when given, is 18 or more. */
  age: z.preprocess(
    (v) => (v === "" || v === null ? undefined : v),
    z
      .number({ error: MSG.characterMinor })
      .int({ error: MSG.characterMinor })
      .min(18, { error: MSG.characterMinor })
      .max(10_000, { error: "age must be a number" })
      .optional(),
  ),
  /** One of the caller's image uploads (POST /api/ImageUpload/upload). */
  avatar_image_id: optionalId("avatar_image_id"),
  /**
   * The character's look besides the avatar (issue 50): up to four of the caller's image uploads, each made with the
   * 18+/consent confirmation every photo upload takes. Given, they replace the earlier ones; [] clears them.
   */
  reference_image_ids: z
    .array(id("each reference_image_ids entry"), { error: "reference_image_ids must be a list of image ids" })
    .max(4, { error: "at most 4 reference pictures" })
    .optional(),
  /** The caller's own trained model the character is tied to (its LoRA renders the caller's pictures of it); null unties it. */
  model_id: z.preprocess((v) => (v === "" || v === 0 || v === "0" ? null : v), id("model_id").nullable().optional()),
  is_public: flag.default(false),
};

/** creatCharacter: a new character, or with `id` an edit of one of the caller's. */
export const characterBody = z.object({ id: optionalId("id"), ...characterFields });
export type CharacterBody = z.infer<typeof characterBody>;

/** generateAvatar: the card as the editor holds it now (saved or not); the picture is painted from it. */
export const avatarBody = z.object({
  name: characterFields.name,
  description: characterFields.description,
  personality: characterFields.personality,
  tags: characterFields.tags,
  age: characterFields.age,
  /** A retried request with the same key is the same picture: never charged twice. */
  idempotency_key: z.string().trim().min(1).max(100).optional(),
});
export type AvatarBody = z.infer<typeof avatarBody>;
/** keepAvatar: a finished avatar picture (generation task) becomes an image of the caller's, usable as avatar_image_id. */
export const keepAvatarBody = z.object({ task_id: id("task_id") });

export const draftBody = z.object({ idea: text("idea", 300).min(3, { error: "Please describe the character in a few words" }) });

/** What the model's draft must look like (looser than the card: it is cut to the limits, and the person edits it). */
export const draftShape = z.object({
  name: z.string().catch(""),
  description: z.string().catch(""),
  personality: z.string().catch(""),
  scenario: z.string().catch(""),
  greeting: z.string().catch(""),
  example_lines: z.array(z.string()).catch([]),
  tags: z.array(z.string()).catch([]),
  age: z.coerce.number().int().nullable().catch(null),
});

export const characterListQuery = pageQuery.extend({
  q: z.string().trim().max(100, { error: "q may be at most 100 characters" }).optional(),
  tag: z.string().trim().max(CARD_LIMITS.tag).optional(),
  sort: z.enum(CHARACTER_SORTS, { error: `sort must be ${CHARACTER_SORTS.join(" or ")}` }).default("popular"),
  /** 1: only the caller's own characters (public and private). */
  mine: z.enum(["0", "1"], { error: "mine must be 0 or 1" }).default("0"),
});
export type CharacterListQuery = z.infer<typeof characterListQuery>;

export const characterIdQuery = z.object({ id: queryId("id") });
export const conversationBody = z.object({ character_id: id("character_id") });
export const conversationIdBody = z.object({ conversation_id: id("conversation_id") });
export const conversationIdQuery = z.object({ conversation_id: queryId("conversation_id") });
export const conversationListQuery = pageQuery;

const content = z
  .string({ error: "Please enter a message" })
  .trim()
  .min(1, { error: "Please enter a message" })
  .max(2000, { error: "A message may be at most 2000 characters" });

export const chatBody = z.object({
  conversation_id: id("conversation_id"),
  content,
  /** A retried send with the same key is the same message: answered again, never charged twice. */
  idempotency_key: z.string().trim().min(1).max(100).optional(),
});
export type ChatBody = z.infer<typeof chatBody>;

export const editBody = z.object({ conversation_id: id("conversation_id"), content });
/** A reply being written: named in the body of a stop, in the query of a follow. */
export const replyRef = z.object({ reply_id: id("reply_id") });
export const replyRefQuery = z.object({ reply_id: queryId("reply_id") });

// What the routes answer (docs/decisions/229).

/** One stored chat message (user or assistant), as the conversation and the reply stream show it. */
export const chatMessage = z.object({
  id: z.number(),
  role: z.string(),
  content: z.string(),
  status: z.string(),
  reply_to_id: z.number().nullable(),
  credits: z.number(),
  created_at: z.string(),
  /** the picture or clip a character sent (issue 50); in the conversation, requestMedia's answer and a media message's end */
  media: chatMediaView.nullable().optional(),
});

/**
 * The `data:` of the reply stream's events (CHAT_STREAM_EVENTS): `start` the stored message and reply rows, `token` a
 * piece of text, `refused` the policy's message, `end` the stored reply; a media message's `progress` (issue 50).
 */
export const chatStreamData = z.union([
  z.object({ user_message: chatMessage.nullable(), reply: chatMessage }),
  z.object({ t: z.string() }),
  z.object({ msg: z.string() }),
  z.object({ reply: chatMessage }),
  z.object({ id: z.number(), state: z.string(), progress: z.number() }),
]);

/** get /api/RoleChat/status */
export const statusAnswer = z.object({
  available: z.boolean(),
  tiers: z.object({
    standard: z.boolean(),
    premium: z.boolean(),
  }),
  message: z.string(),
  price: z.object({
    standard: z.number(),
    premium: z.number(),
  }),
  free_left: z.number(),
  suspended: z.boolean(),
});

/** A character card as its reader sees it (post /api/RoleChat/creatCharacter, characterDetails, the lists) */
export const characterView = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  personality: z.string(),
  scenario: z.string(),
  greeting: z.string(),
  example_lines: z.array(z.string()),
  tags: z.array(z.string()),
  age: z.number().nullable(),
  tier: z.string(),
  avatar_url: z.string().nullable(),
  /** the reference pictures of its look, signed */
  reference_urls: z.array(z.string()),
  /** the owner's trained model it is tied to; null for everyone else */
  model_id: z.number().nullable(),
  is_public: z.number(),
  state: z.enum(CONTENT_STATES),
  conversation_count: z.number(),
  mine: z.boolean(),
  created_at: z.string(),
});

/** post /api/RoleChat/generateCharacterInfo: a draft of the card's written part, for the person to edit */
export const generateCharacterInfoAnswer = characterView.pick({
  name: true,
  description: true,
  personality: true,
  scenario: true,
  greeting: true,
  example_lines: true,
  tags: true,
  age: true,
});

/** post /api/RoleChat/generateAvatar */
export const generateAvatarAnswer = z.object({
  id: z.number(),
  cost: z.number(),
  status: z.string(),
});

/** post /api/RoleChat/keepAvatar: the picture, kept as one of the caller's uploads */
export const keepAvatarAnswer = uploadAnswer;

/** get /api/RoleChat/getCharacterList */
export const getCharacterListAnswer = pageOf(characterView);

/** post /api/RoleChat/creatConversation */
export const creatConversationAnswer = z.object({
  id: z.number(),
  character: characterView,
  last_line: z
    .object({
      role: z.string(),
      content: z.string(),
    })
    .nullable(),
  state: z.enum(CONTENT_STATES),
  last_message_at: z.string(),
  created_at: z.string(),
});

/** get /api/RoleChat/conversationList */
export const conversationListAnswer = pageOf(creatConversationAnswer);

/** get /api/RoleChat/conversation */
export const conversationAnswer = z.object({
  conversation: creatConversationAnswer,
  messages: z.array(chatMessage),
});

/** post /api/RoleChat/deleteConversation */
export const deleteConversationAnswer = z.object({
  id: z.number(),
});

/** post /api/RoleChat/stop */
export const stopAnswer = z.object({
  id: z.number(),
  status: z.string(),
});

/** post /api/RoleChat/requestMedia: the task like every submit, and the character's message that will carry it */
export const requestMediaAnswer = z.object({
  id: z.number(),
  cost: z.number(),
  status: z.string(),
  paid_with: z.string(),
  message: chatMessage,
});
