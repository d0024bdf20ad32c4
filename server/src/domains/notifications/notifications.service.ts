import { countedOncePerPerson, type CountedEachTime, type NotificationKind } from "../../contract/notifications.ts";
import { publicName, publicNameFields } from "../creators/creators.pages.ts";
import type { Db, SqlTx, Tx } from "../../db/client.ts";
import type { Notification } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { markOnce, recordEvent, recordEvents } from "./notifications.queries.ts";
import type { NotificationsQuery } from "./notifications.schema.ts";

/** One event another domain records, in its own transaction. */
export interface NotificationEvent {
  /** who is told */
  userId: number;
  kind: NotificationKind;
  /** the thing it is about (gallery item, creator page, thread); none for a new follower */
  subjectId?: number;
  /** who did it; never told about their own doing */
  actorId: number;
  /** credits moved (a tip, an unlock) */
  amount?: number;
}

/**
 * What other domains are given: record one event inside their transaction (Prisma's, or pg's on the submit's hot
 * path), so a rolled-back action tells no one.
 */
export type RecordNotification = (tx: Tx | SqlTx, event: NotificationEvent) => Promise<void>;

/**
 * Records an event (docs/decisions/312). Nothing when the actor is the account itself; for kinds counted once per
 * person, nothing when that person was already counted on the thing (an unlike and a like again).
 */
export const recordNotification: RecordNotification = async (tx, e) => {
  if (e.actorId === e.userId) return;
  const subjectId = e.subjectId ?? 0;
  if (countedOncePerPerson(e.kind) && !(await markOnce.first(tx, { userId: e.userId, kind: e.kind, subjectId, actorId: e.actorId }))) return;
  await recordEvent.rows(tx, { userId: e.userId, kind: e.kind, subjectId, actorId: e.actorId, amount: e.amount ?? 0 });
};

/**
 * One actor's event to many accounts at once, each about its own thing (a creator's message to every member, each in
 * their own thread): one statement whatever the number, inside the sender's transaction. Only for kinds that count
 * every event (a message), not those counted once per person.
 */
export type RecordNotifications = (tx: Tx, e: { kind: CountedEachTime; actorId: number; to: { userId: number; subjectId: number }[] }) => Promise<void>;

export const recordNotifications: RecordNotifications = async (tx, e) => {
  const to = e.to.filter((t) => t.userId !== e.actorId);
  if (to.length) await recordEvents.rows(tx, { kind: e.kind, actorId: e.actorId, userIds: to.map((t) => t.userId), subjectIds: to.map((t) => t.subjectId) });
};

type Actor = Parameters<typeof publicName>[0] & { id: number; role: string; erasedAt: Date | null };

/**
 * The name a line shows for its latest actor: a saved account's public name, as the gallery shows it (a creator's
 * page title); null for a guest or an erased account, which the app calls "someone" and never identifies.
 */
export function actorName(actor: Actor | undefined): string | null {
  if (!actor || actor.role === "visitor" || actor.erasedAt) return null;
  return publicName(actor);
}

/** Lines as the bell shows them, with their actors' public names. */
export async function notificationViews(db: Db, rows: Notification[]) {
  const ids = [...new Set(rows.flatMap((r) => (r.actorId === null ? [] : [r.actorId])))];
  const actors = ids.length
    ? await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, role: true, erasedAt: true, ...publicNameFields } })
    : [];
  const byId = new Map(actors.map((a) => [a.id, a]));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind as NotificationKind,
    subject_id: r.subjectId,
    count: r.count,
    amount: r.amount,
    actor: actorName(r.actorId === null ? undefined : byId.get(r.actorId)),
    read: r.readAt !== null,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

/** The bell (issue 32 item 7): each account's own lines, never another's (every statement names the caller). */
export function createNotificationsService(db: Db) {
  const unread = (userId: number) => db.notification.count({ where: { userId, readAt: null } });
  return {
    record: recordNotification,
    recordMany: recordNotifications,

    /** A page of the caller's lines, latest event first, and how many are unread. */
    async list(userId: number, q: NotificationsQuery) {
      const where = { userId, ...(q.unread ? { readAt: null } : {}) };
      const [rows, total, unreadCount] = await Promise.all([
        db.notification.findMany({ where, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
        db.notification.count({ where }),
        unread(userId),
      ]);
      return { list: await notificationViews(db, rows), total, unread: unreadCount, page: q.page, limit: q.limit };
    },

    async unreadCount(userId: number) {
      return { unread: await unread(userId) };
    },

    /** Marks one of the caller's lines read; another account's line answers 404 like a missing one. */
    async markRead(userId: number, id: number) {
      const found = await db.notification.findFirst({ where: { id, userId }, select: { id: true } });
      if (!found) throw HttpError.notFound();
      await db.notification.updateMany({ where: { id, userId, readAt: null }, data: { readAt: new Date() } });
      return { unread: await unread(userId) };
    },

    /** Marks every line of the caller read. */
    async markAllRead(userId: number) {
      await db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: new Date() } });
      return { unread: 0 };
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
