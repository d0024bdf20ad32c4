import { z } from "zod";
import { pageOf } from "../uploads/uploads.schema.ts";
import { NOTIFICATION_KINDS, NOTIFICATION_PAGE_MAX } from "../../contract/notifications.ts";

/** get /api/notifications: a page of the caller's lines; `unread=1` for the unread ones only. */
export const notificationsQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(NOTIFICATION_PAGE_MAX).default(20),
  unread: z
    .enum(["0", "1"])
    .optional()
    .transform((v) => v === "1"),
});
export type NotificationsQuery = z.infer<typeof notificationsQuery>;

export const markReadBody = z.strictObject({ id: z.number().int().positive().max(2_147_483_647) });
export const markAllReadBody = z.strictObject({});
export const digestSettingBody = z.strictObject({ email_digest: z.boolean() });
export const unsubscribeBody = z.strictObject({ token: z.string().min(1).max(200) });

// What the routes answer (docs/decisions/229).

/** One line of the bell: what happened to which of the caller's things, how many times, who did it last. */
export const notificationView = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** the gallery item (like, remix), creator page (tip) or thread (message, unlock); 0 for a new follower */
  subject_id: z.number(),
  /** people (like, remix, follow: each counted once) or events (tip, message, unlock) on this line */
  count: z.number(),
  /** credits in all (tip, unlock); 0 otherwise */
  amount: z.number(),
  /** the latest actor's public name; null for a guest or an erased account ("someone") */
  actor: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
  /** the latest event */
  updated_at: z.string(),
});

/** get /api/notifications */
export const notificationsAnswer = pageOf(notificationView).extend({ unread: z.number() });

/** get /api/notifications/unread, and what marking read answers */
export const unreadAnswer = z.object({ unread: z.number() });

/** get and post /api/notifications/settings, post /api/notifications/unsubscribe */
export const digestSettingAnswer = z.object({ email_digest: z.boolean() });
