import { z } from "zod";
import { MESSAGE_BODY_MAX, MESSAGE_MESSAGES as M, MESSAGE_PAGE_SIZE, MESSAGE_PRICE_MAX, THREAD_PAGE_SIZE } from "../../contract/messages.ts";
import { SIDES } from "../../contract/sides.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import { CONTENT_STATES } from "../../contract/moderation.ts";
import { idsFilter } from "../../http/list-filters.ts";

/** A JSON body's numbers are JSON numbers; only a query string's are text made numbers (issue 47). */
const id = z.number().int().positive();
const queryId = z.coerce.number().int().positive();
const trimmed = (v: unknown) => (typeof v === "string" ? v.trim() : v);
/** one per tap: a double click or a retried request is one message */
const idempotencyKey = z.string().min(8).max(100);

/** What a creator may send: text, an item of their own library, a price that locks it (docs/decisions/310). */
const creatorContent = {
  body: z.preprocess(
    trimmed,
    z
      .string()
      .max(MESSAGE_BODY_MAX, { error: M.bodyTooLong.replace("{{max}}", String(MESSAGE_BODY_MAX)) })
      .default(""),
  ),
  library_item_id: id.optional(),
  price: z
    .number()
    .int()
    .min(0, { error: M.priceRange.replace("{{max}}", String(MESSAGE_PRICE_MAX)) })
    .max(MESSAGE_PRICE_MAX, { error: M.priceRange.replace("{{max}}", String(MESSAGE_PRICE_MAX)) })
    .default(0),
  idempotency_key: idempotencyKey,
};

/**
 * A message into a thread (`thread_id`), or a fan's first message to a page (`home_link`). A fan sends text only: the
 * service refuses an item or a price from a fan, as the table's check does.
 */
export const sendBody = z
  .object({
    thread_id: id.optional(),
    home_link: z.preprocess(trimmed, z.string().min(1, CREATOR_MESSAGES.noDomainInformation).max(100)).optional(),
    ...creatorContent,
  })
  .refine((b) => b.thread_id !== undefined || b.home_link !== undefined, { error: CREATOR_MESSAGES.noDomainInformation, path: ["home_link"] })
  .refine((b) => b.body !== "" || b.library_item_id !== undefined, { error: M.empty, path: ["body"] })
  .refine((b) => b.price === 0 || b.library_item_id !== undefined, { error: M.priceNeedsItem, path: ["price"] });
export type SendBody = z.infer<typeof sendBody>;

/** The creator's message to all their members now. */
export const massSendBody = z
  .object(creatorContent)
  .refine((b) => b.body !== "" || b.library_item_id !== undefined, { error: M.empty, path: ["body"] })
  .refine((b) => b.price === 0 || b.library_item_id !== undefined, { error: M.priceNeedsItem, path: ["price"] });
export type MassSendBody = z.infer<typeof massSendBody>;

export const threadsQuery = z.object({
  as: z.enum(SIDES).default("fan"),
  page: z.coerce.number().int().positive().max(10_000).default(1),
  limit: z.coerce.number().int().positive().max(THREAD_PAGE_SIZE).default(THREAD_PAGE_SIZE),
});
/** get /api/Messages/massSent: the creator's messages to all members, newest first */
export const massSentQuery = threadsQuery.omit({ as: true });
export const threadQuery = z.object({
  id: queryId,
  /** messages older than this one (the next page up); the newest when absent */
  before: queryId.optional(),
  limit: z.coerce.number().int().positive().max(MESSAGE_PAGE_SIZE).default(MESSAGE_PAGE_SIZE),
});
export const threadIdBody = z.object({ thread_id: id });
export const blockBody = z.object({ thread_id: id, blocked: z.number().int().min(0).max(1) });
export const unlockBody = z.object({ message_id: id });
/** A message's file: message, part and viewer as signed, with the signature's expiry. */
export const messageMediaQuery = z.object({
  message: queryId,
  part: z.enum(["main", "poster"]),
  viewer: queryId,
  expires: z.coerce.number().int(),
  sig: z.string().min(1).max(100),
});

// What the routes answer (docs/decisions/229).

export const threadView = z.object({
  id: z.number(),
  /** which side of the thread the caller is */
  as: z.enum(SIDES),
  home_link: z.string(),
  title: z.string(),
  fan_name: z.string(),
  /** the fan blocked the creator */
  blocked: z.boolean(),
  /** messages the caller has not opened */
  unread: z.number(),
  last_message_at: z.string(),
  last_body: z.string().nullable(),
  last_sender: z.enum(SIDES).nullable(),
});
export const messageView = z.object({
  id: z.number(),
  thread_id: z.number(),
  sender: z.enum(SIDES),
  /** the caller wrote it */
  mine: z.boolean(),
  body: z.string(),
  /** credits to open it; 0 when free */
  price: z.number(),
  /** the fan has not paid for it yet: no media URL until they do (the creator always sees their own) */
  locked: z.boolean(),
  unlocked: z.boolean(),
  /** the attached item's kind, shown even while locked */
  media_kind: z.enum(["image", "video"]).nullable(),
  /** signed for the caller alone (docs/decisions/310) */
  media_url: z.string().nullable(),
  poster_url: z.string().nullable(),
  mass: z.boolean(),
  created_at: z.string(),
});
/** get /api/Messages/threads */
export const threadsAnswer = z.object({ list: z.array(threadView), unread_total: z.number() });
/** get /api/Messages/thread */
export const threadAnswer = z.object({ thread: threadView, messages: z.array(messageView) });
/** post /api/Messages/send, /api/Messages/unlock */
export const messageAnswer = messageView;
/** post /api/Messages/massSend */
export const massSendAnswer = z.object({ id: z.number(), recipients: z.number() });
/** get /api/Messages/massSent */
export const massSentAnswer = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      body: z.string(),
      /** an item of the creator's library went with it */
      with_item: z.boolean(),
      price: z.number(),
      /** the members it reached */
      recipients: z.number(),
      /** the members who paid to open it (a locked one) */
      unlocked: z.number(),
      created_at: z.date(),
    }),
  ),
  total: z.number(),
});
/** post /api/Messages/read, /api/Messages/block */
export const threadAnswerOnly = threadView;

// The console's reported threads.

export const reportedThreadFilter = z.strictObject({ id: idsFilter });
export const reportedThreadSortable = ["lastReportedAt"] as const;
const reportedThreadFields = {
  id: z.number(),
  creatorPageId: z.number(),
  homeLink: z.string(),
  creatorUserId: z.number(),
  fanUserId: z.number(),
  reports: z.number(),
  openReports: z.number(),
  lastReportedAt: z.date(),
};
export const reportedThreadRow = z.object(reportedThreadFields);
export const reportedThreadRecord = z.object({
  ...reportedThreadFields,
  messages: z.array(
    z.object({
      id: z.number(),
      sender: z.enum(SIDES),
      body: z.string(),
      libraryItemId: z.number().nullable(),
      price: z.number(),
      unlocked: z.boolean(),
      state: z.enum(CONTENT_STATES),
      reported: z.boolean(),
      reports: z.number(),
      createdAt: z.date(),
    }),
  ),
});
