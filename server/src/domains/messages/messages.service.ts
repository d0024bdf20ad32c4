import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { MediaPart } from "../creators/creator-library.service.ts";
import { createMessagesAdmin } from "./messages.admin.ts";
import { createMessageMedia, type MediaDeps } from "./messages.media.ts";
import { moderatedMessages } from "./messages.moderated.ts";
import { creatorThreads, fanThreads, threadFor, unlocksPerDay } from "./messages.queries.ts";
import type { MassSendBody, SendBody } from "./messages.schema.ts";
import { createSending, type SendDeps } from "./messages.send.ts";
import { createUnlocks } from "./messages.unlock.ts";
import { messageView, sideOf, threadView, type Side } from "./messages.views.ts";

export interface MessagesDeps extends MediaDeps, SendDeps {
  db: Db;
  /** the ledger: an unlock's price is charged from the fan and granted to the creator as an earning, together */
  credits: Pick<CreditsService, "charge" | "grant">;
  /** creators' media pass (decision 217): a <video> element's proof of its viewer, valid for message files too */
  mediaPass(viewerId: number, sessionId: number): { value: string; maxAgeSeconds: number };
  passViewer(value: string | undefined): Promise<number | null>;
}

/**
 * Messages between fans and creators (issue 32 item 6, docs/decisions/310): one thread per fan and creator page,
 * text both ways and the creator's own library items, pay-per-view unlocks through the ledger, mass messages to
 * members, blocks and reports. Owns message_threads, messages and mass_messages. A thread exists for its two sides
 * only: anyone else, and any thread whose page is down or whose creator is banned, is a plain 404.
 */
export function createMessagesService(deps: MessagesDeps) {
  const { db } = deps;
  const media = createMessageMedia(deps);
  const sending = createSending(deps);
  const unlock = createUnlocks(db, deps.credits, deps.events);

  /** The thread for one of its sides, or 404. */
  async function threadOf(userId: number, threadId: number) {
    const t = await threadFor.first(db, { threadId, userId });
    if (!t) throw HttpError.notFound();
    return t;
  }

  /** Messages of a thread as one side sees them, newest first; held and taken-down ones are gone for both. */
  async function messagesOf(userId: number, threadId: number, q: { before?: number; limit: number }) {
    const t = await threadOf(userId, threadId);
    const as = sideOf(t, userId);
    const rows = await db.message.findMany({
      where: { threadId, state: "active", ...(q.before ? { id: { lt: q.before } } : {}) },
      orderBy: { id: "desc" },
      take: q.limit,
    });
    const attached = await media.attached(
      t.creator_user_id,
      rows.flatMap((m) => (m.libraryItemId === null ? [] : [m.libraryItemId])),
    );
    return { thread: threadView(t, as), messages: rows.map((m) => messageView(media, m, as, userId, attached)) };
  }

  /** One message as its viewer sees it now (after a send or an unlock). */
  async function oneMessage(userId: number, threadId: number, messageId: number) {
    const { messages } = await messagesOf(userId, threadId, { before: messageId + 1, limit: 1 });
    if (messages[0]?.id !== messageId) throw HttpError.notFound();
    return messages[0];
  }

  return {
    /** Paid messages unlocked per UTC day since `sinceUtc`: a series of the console dashboard. */
    unlocksPerDay: (sinceUtc: string) => unlocksPerDay.rows(db, { sinceUtc }),

    /** The caller's threads as a fan, or (`as=creator`) those of their page; with the total unread on that side. */
    async threads(userId: number, q: { as: Side; page: number; limit: number }) {
      const list = q.as === "fan" ? fanThreads : creatorThreads;
      const rows = await list.rows(db, { userId, limit: q.limit, offset: (q.page - 1) * q.limit });
      const where = q.as === "fan" ? { fanUserId: userId } : { creatorPageId: (await db.creatorPage.findUnique({ where: { userId } }))?.id ?? -1 };
      const unread = await db.messageThread.aggregate({ where, _sum: { fanUnread: true, creatorUnread: true } });
      return { list: rows.map((t) => threadView(t, q.as)), unread_total: (q.as === "fan" ? unread._sum.fanUnread : unread._sum.creatorUnread) ?? 0 };
    },

    thread: (userId: number, q: { id: number; before?: number; limit: number }) => messagesOf(userId, q.id, q),

    /** The caller has read the thread: their unread count is zero. */
    async read(userId: number, threadId: number) {
      const t = await threadOf(userId, threadId);
      const as = sideOf(t, userId);
      await db.messageThread.update({ where: { id: threadId }, data: as === "fan" ? { fanUnread: 0 } : { creatorUnread: 0 } });
      return threadView(await threadOf(userId, threadId), as);
    },

    /** The fan blocks the creator (nothing more from them reaches the fan, mass messages included), or unblocks. */
    async block(fanId: number, threadId: number, blocked: boolean) {
      const t = await threadOf(fanId, threadId);
      if (sideOf(t, fanId) !== "fan") throw HttpError.notFound();
      await db.messageThread.updateMany({ where: { id: threadId }, data: { blockedAt: blocked ? (t.blocked ? undefined : new Date()) : null } });
      return threadView(await threadOf(fanId, threadId), "fan");
    },

    async send(userId: number, b: SendBody) {
      const sent = await sending.send(userId, b);
      return oneMessage(userId, sent.threadId, sent.messageId);
    },
    massSend: (creatorId: number, b: MassSendBody) => sending.massSend(creatorId, b),

    /** The creator's messages to all members, newest first (none without a page): what each said, reached and earned. */
    async massSent(creatorId: number, q: { page: number; limit: number }) {
      const page = await db.creatorPage.findUnique({ where: { userId: creatorId }, select: { id: true } });
      if (!page) return { list: [], total: 0 };
      const where = { creatorPageId: page.id };
      const [rows, total] = await Promise.all([
        db.massMessage.findMany({
          where,
          orderBy: { id: "desc" },
          skip: (q.page - 1) * q.limit,
          take: q.limit,
          include: { _count: { select: { messages: { where: { unlockedAt: { not: null } } } } } },
        }),
        db.massMessage.count({ where }),
      ]);
      const list = rows.map((m) => ({
        id: m.id,
        body: m.body,
        with_item: m.libraryItemId !== null,
        price: m.price,
        recipients: m.recipients,
        unlocked: m._count.messages,
        created_at: m.createdAt,
      }));
      return { list, total };
    },

    /** The fan opens a locked message: charged once, however often (or however many times at once) it is asked. */
    async unlock(fanId: number, messageId: number) {
      await unlock(fanId, messageId);
      const m = await db.message.findUniqueOrThrow({ where: { id: messageId } });
      return oneMessage(fanId, m.threadId, messageId);
    },

    /** A message's file for the signed-in viewer it was signed for, checked on every request. */
    file: (requesterId: number | null, q: { message: number; part: MediaPart; viewer: number; expires: number; sig: string }) => media.file(requesterId, q),
    mediaPass: deps.mediaPass,
    passViewer: deps.passViewer,

    /** How moderation finds, hides and previews a reported message. */
    moderated: moderatedMessages(media),
    /**
     * Account erasure (privacy, decision 262): the account's threads as a fan and its page's threads go, their
     * messages with them (the ledger keeps what unlocks moved, by reference only).
     */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.messageThread.deleteMany({ where: { fanUserId: userId } });
      const page = await tx.creatorPage.findUnique({ where: { userId }, select: { id: true } });
      if (page) {
        await tx.messageThread.deleteMany({ where: { creatorPageId: page.id } });
        await tx.massMessage.deleteMany({ where: { creatorPageId: page.id } });
      }
      // messages keep no files of their own: what they show is the creator's library
      return [];
    },

    /** Reported threads in the console. */
    admin: createMessagesAdmin(db),
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;
