import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { LocalMediaSigner } from "../../storage/local.storage.ts";
import type { CreationMedia, MediaPart } from "../creators/creator-library.service.ts";

/** The route that serves a message's file (messages.routes.ts), each request checked. */
export const MESSAGE_MEDIA_PATH = "/api/Messages/media";

export interface MediaDeps {
  db: Db;
  /**
   * The HMAC signer of local media and members-only library URLs, with the same secret: a message's subject has a
   * prefix of its own, so no library or storage signature opens a message's file, nor the other way round.
   */
  signer: LocalMediaSigner;
  ttlSeconds: number;
  /** generation owns creations: the files of the creator's finished, active, unexpired ones among the ids */
  creations(userId: number, taskIds: number[]): Promise<Map<number, CreationMedia>>;
}

const subject = (messageId: number, part: MediaPart, viewerId: number) => `message-media:${messageId}:${part}:viewer:${viewerId}`;

/** A message's attached library item, with its creation's files where they still exist. */
export interface Attached {
  itemId: number;
  media: CreationMedia | null;
}

/**
 * The files messages carry, signed for one viewer (docs/decisions/310), as the members-only library signs its own:
 * the URL names the message, the part and the viewer, and the serving route checks on every request that the caller
 * is that viewer, one of the thread's two sides, and (a fan) has unlocked a locked message.
 */
export function createMessageMedia({ db, signer, ttlSeconds, creations }: MediaDeps) {
  function url(messageId: number, part: MediaPart, viewerId: number): string {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const q = new URLSearchParams({
      message: String(messageId),
      part,
      viewer: String(viewerId),
      expires: String(expires),
      sig: signer.sign(subject(messageId, part, viewerId), expires),
    });
    return `${MESSAGE_MEDIA_PATH}?${q}`;
  }

  /** The attached items of these messages (by library item id), with their files as the creator's creations. */
  async function attached(creatorUserId: number, itemIds: number[]): Promise<Map<number, Attached>> {
    if (!itemIds.length) return new Map();
    const items = await db.creatorLibraryItem.findMany({ where: { id: { in: itemIds } }, select: { id: true, taskId: true } });
    const media = await creations(
      creatorUserId,
      items.map((i) => i.taskId),
    );
    return new Map(items.map((i) => [i.id, { itemId: i.id, media: media.get(i.taskId) ?? null }]));
  }

  return {
    url,
    attached,

    /**
     * One message's file for the requesting viewer only: signed for them and unexpired, a side of the thread, the page
     * up and its creator not banned, the message shown (not held or taken down), and paid for when locked. Anything
     * else is a plain 404 that tells nothing.
     */
    async file(requesterId: number | null, q: { message: number; part: MediaPart; viewer: number; expires: number; sig: string }) {
      if (requesterId === null || requesterId !== q.viewer) throw HttpError.notFound();
      if (!signer.verify(subject(q.message, q.part, q.viewer), q.expires, q.sig)) throw HttpError.notFound();
      const m = await db.message.findUnique({ where: { id: q.message }, include: { thread: true } });
      if (m?.state !== "active" || m.libraryItemId === null) throw HttpError.notFound();
      const page = await db.creatorPage.findUnique({
        where: { id: m.thread.creatorPageId },
        select: { userId: true, state: true, user: { select: { bannedAt: true } } },
      });
      if (page?.state !== "active" || page.user.bannedAt) throw HttpError.notFound();
      const isFan = m.thread.fanUserId === q.viewer;
      if (!isFan && page.userId !== q.viewer) throw HttpError.notFound();
      if (isFan && m.price > 0 && !m.unlockedAt) throw HttpError.notFound();
      const media = (await attached(page.userId, [m.libraryItemId])).get(m.libraryItemId)?.media;
      const key = q.part === "main" ? media?.key : media?.posterKey;
      if (!key) throw HttpError.notFound();
      return { key };
    },
  };
}

export type MessageMedia = ReturnType<typeof createMessageMedia>;
