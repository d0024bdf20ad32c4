import { z } from "zod";
import { SUPPORT_AUTHORS, SUPPORT_MESSAGE_MAX, SUPPORT_THREAD_STATUSES } from "../../contract/support.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";

/** Said when a message is empty or only spaces. */
export const EMPTY_MESSAGE = "Please write a message";
/** Said when a message is over SUPPORT_MESSAGE_MAX characters. */
export const LONG_MESSAGE = `A message may be at most ${SUPPORT_MESSAGE_MAX} characters`;

const messageText = z.string({ error: EMPTY_MESSAGE }).trim().min(1, { error: EMPTY_MESSAGE }).max(SUPPORT_MESSAGE_MAX, { error: LONG_MESSAGE });

/** POST /api/support/messages: a message to support, about one of the person's orders when opened from it. */
export const supportMessageBody = z.strictObject({
  body: messageText,
  order_id: z.number({ error: "order_id must be a number" }).int().positive({ error: "order_id must be a number" }).nullish(),
});
export type SupportMessageBody = z.infer<typeof supportMessageBody>;

const messageView = z.object({
  id: z.number(),
  author: z.enum(SUPPORT_AUTHORS),
  body: z.string(),
  created_at: z.string(),
});

/** The person's current thread (null before their first message) and how many support replies they have not seen. */
export const supportThreadAnswer = z.object({
  thread: z
    .object({
      id: z.number(),
      status: z.enum(SUPPORT_THREAD_STATUSES),
      order_id: z.number().nullable(),
      order_no: z.string().nullable(),
      messages: z.array(messageView),
    })
    .nullable(),
  unread: z.number(),
});
export type SupportThreadAnswer = z.infer<typeof supportThreadAnswer>;

export const supportReadAnswer = z.object({ unread: z.literal(0) });

// The console's queue (docs/decisions/030 plain JSON).

export const supportThreadFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(SUPPORT_THREAD_STATUSES).optional(),
  assigneeId: intFilter,
  userId: intFilter,
  orderId: intFilter,
});
export type SupportThreadFilter = z.infer<typeof supportThreadFilter>;
export const supportThreadSortable = ["id", "status", "lastMessageAt", "createdAt"] as const;

/** A staff change of a thread: who has it, and where it stands. */
export const supportThreadUpdateBody = z.strictObject({
  status: z.enum(SUPPORT_THREAD_STATUSES, { error: `status must be ${SUPPORT_THREAD_STATUSES.join(", ")}` }).optional(),
  assigneeId: z.number().int().positive().nullable().optional(),
});
export type SupportThreadUpdateBody = z.infer<typeof supportThreadUpdateBody>;

export const supportReplyBody = z.strictObject({ body: messageText });

export const supportThreadRecord = z.object({
  id: z.number(),
  userId: z.number(),
  orderId: z.number().nullable(),
  status: z.enum(SUPPORT_THREAD_STATUSES),
  assigneeId: z.number().nullable(),
  lastMessageAt: z.date(),
  readByUserAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /** how long since the last message: how long the person has waited while the thread is open */
  ageSeconds: z.number(),
  /** the last message, for the queue */
  preview: z.string(),
  /** who wrote last: a thread whose last word is the person's is waiting for support */
  lastAuthor: z.enum(SUPPORT_AUTHORS),
  messages: z.array(z.object({ id: z.number(), author: z.enum(SUPPORT_AUTHORS), staffId: z.number().nullable(), body: z.string(), createdAt: z.date() })),
});
export type SupportThreadRecord = z.infer<typeof supportThreadRecord>;

/** A thread in the queue: its columns, not its conversation (that is read when the thread is opened). */
export const supportThreadRow = supportThreadRecord.omit({ messages: true });
