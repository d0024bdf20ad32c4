import type { Message } from "../../db/generated/client.ts";
import type { Side } from "../../contract/sides.ts";
import type { RowOf } from "../../db/statement.ts";
import type { fanThreads } from "./messages.queries.ts";
import type { Attached, MessageMedia } from "./messages.media.ts";

export type ThreadRow = RowOf<typeof fanThreads.columns>;
export type { Side };

/** The side of a thread a user is: its fan, or the creator of its page. */
export const sideOf = (t: Pick<ThreadRow, "fan_user_id">, userId: number): Side => (t.fan_user_id === userId ? "fan" : "creator");

/** A thread as one of its sides sees it: their own unread count. */
export function threadView(t: ThreadRow, as: Side) {
  return {
    id: t.id,
    as,
    home_link: t.home_link,
    title: t.title,
    fan_name: t.fan_name,
    blocked: t.blocked,
    unread: as === "fan" ? t.fan_unread : t.creator_unread,
    last_message_at: t.last_message_at.toISOString(),
    last_body: t.last_body,
    last_sender: t.last_sender as Side | null,
  };
}

/**
 * A message as one side sees it. A locked message (a price the fan has not paid) shows the fan its text, price and
 * the kind of what it holds, never a URL; the creator sees their own always. URLs are signed for this viewer alone.
 */
export function messageView(media: MessageMedia, m: Message, as: Side, viewerId: number, attached: Map<number, Attached>) {
  const locked = m.price > 0 && !m.unlockedAt && as === "fan";
  const files = m.libraryItemId !== null ? attached.get(m.libraryItemId)?.media : null;
  const signed = files && !locked;
  return {
    id: m.id,
    thread_id: m.threadId,
    sender: m.sender as Side,
    mine: m.sender === as,
    body: m.body,
    price: m.price,
    locked,
    unlocked: m.unlockedAt !== null,
    media_kind: files?.kind ?? null,
    media_url: signed ? media.url(m.id, "main", viewerId) : null,
    poster_url: signed && files.posterKey ? media.url(m.id, "poster", viewerId) : null,
    mass: m.massMessageId !== null,
    created_at: m.createdAt.toISOString(),
  };
}
