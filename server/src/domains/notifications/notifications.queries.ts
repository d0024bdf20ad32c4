import type { NotificationKind } from "../../contract/notifications.ts";
import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

export interface RecordParams {
  userId: number;
  kind: NotificationKind;
  subjectId: number;
  actorId: number | null;
  amount: number;
}

/**
 * Marks `actorId` as counted on the thing; no row when they already were (an unlike and a like again, a second
 * remix): the caller then records nothing. Concurrent marks of one person wait on the key and insert once.
 */
export const markOnce = statement({
  columns: { actorId: col.int },
  sql: (p: { userId: number; kind: NotificationKind; subjectId: number; actorId: number }) => Prisma.sql`
    INSERT INTO notification_marks (user_id, kind, subject_id, actor_id) VALUES (${p.userId}, ${p.kind}, ${p.subjectId}, ${p.actorId})
    ON CONFLICT DO NOTHING RETURNING actor_id AS "actorId"`,
  example: { userId: 1, kind: "like", subjectId: 1, actorId: 2 },
});

/**
 * One event on an account's thing: a new unread line, or the unread line it joins (one more event, this actor the
 * latest, the credits added). Concurrent events on one thing queue on the line's key and each adds one.
 */
export const recordEvent = statement({
  columns: { id: col.int },
  sql: (p: RecordParams) => Prisma.sql`
    INSERT INTO notifications AS n (user_id, kind, subject_id, actor_id, amount, created_at, updated_at)
    VALUES (${p.userId}, ${p.kind}, ${p.subjectId}, ${p.actorId}, ${p.amount}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'))
    ON CONFLICT (user_id, kind, subject_id) WHERE read_at IS NULL DO UPDATE SET count = n.count + 1,
      actor_id = EXCLUDED.actor_id, amount = n.amount + EXCLUDED.amount, updated_at = EXCLUDED.updated_at
    RETURNING n.id`,
  example: { userId: 1, kind: "tip", subjectId: 1, actorId: 2, amount: 10 },
});

/** One event of one actor to many accounts at once (a mass message): recordEvent's row for each, in one statement. */
export const recordEvents = statement({
  columns: { id: col.int },
  sql: (p: { userIds: number[]; subjectIds: number[]; kind: NotificationKind; actorId: number }) => Prisma.sql`
    INSERT INTO notifications AS n (user_id, kind, subject_id, actor_id, created_at, updated_at)
    SELECT e.user_id, ${p.kind}, e.subject_id, ${p.actorId}, (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC')
    FROM unnest(${p.userIds}::int[], ${p.subjectIds}::int[]) AS e(user_id, subject_id)
    ON CONFLICT (user_id, kind, subject_id) WHERE read_at IS NULL DO UPDATE SET count = n.count + 1,
      actor_id = EXCLUDED.actor_id, updated_at = EXCLUDED.updated_at
    RETURNING n.id`,
  example: { userIds: [1], subjectIds: [1], kind: "message", actorId: 2 },
});

/**
 * Claims one account's digest of `day` (UTC, YYYY-MM-DD): moves its day forward only while it is behind, answering
 * when the digest before was sent. A second worker's UPDATE waits on the row, then finds the day taken and returns
 * nothing, so each day is sent once.
 */
export const claimDigest = statement({
  columns: { since: col.time.orNull },
  sql: (p: { userId: number; day: string }) => Prisma.sql`
    WITH before AS (SELECT user_id, last_digest_at FROM notification_settings WHERE user_id = ${p.userId})
    UPDATE notification_settings s SET digest_day = ${p.day}, last_digest_at = (now() AT TIME ZONE 'UTC')
    FROM before WHERE s.user_id = before.user_id AND s.email_digest AND (s.digest_day IS NULL OR s.digest_day < ${p.day})
    RETURNING before.last_digest_at AS since`,
  example: { userId: 1, day: "2026-11-27" },
});
