import { Prisma } from "../../db/generated/client.ts";
import type { Side } from "../../contract/sides.ts";
import { col, countsPerDay, statement } from "../../db/statement.ts";

// ---- threads ----

/** The fan's thread with a page, made on first use; one per fan and page (unique), so two first messages share it. */
export const openThread = statement({
  columns: { id: col.int, blocked_at: col.time.orNull },
  sql: (p: { pageId: number; fanId: number }) => Prisma.sql`
    INSERT INTO message_threads (creator_page_id, fan_user_id) VALUES (${p.pageId}, ${p.fanId})
    ON CONFLICT (creator_page_id, fan_user_id) DO UPDATE SET creator_page_id = EXCLUDED.creator_page_id
    RETURNING id, blocked_at`,
  example: { pageId: 1, fanId: 1 },
});

/**
 * A message counted as unread by the side that did not write it, and the thread moved to the top of both lists. Row
 * locked: the reader's "read" (which zeroes the count) and this queue instead of losing one.
 */
export const bumpThread = statement({
  columns: { fan_unread: col.int, creator_unread: col.int, blocked: col.bool },
  sql: (p: { threadId: number; sender: Side; at: Date }) => Prisma.sql`
    UPDATE message_threads SET
      fan_unread = fan_unread + CASE WHEN ${p.sender} = 'creator' THEN 1 ELSE 0 END,
      creator_unread = creator_unread + CASE WHEN ${p.sender} = 'fan' THEN 1 ELSE 0 END,
      last_message_at = ${p.at}
    WHERE id = ${p.threadId}
    RETURNING fan_unread, creator_unread, blocked_at IS NOT NULL AS blocked`,
  example: { threadId: 1, sender: "fan", at: new Date() },
});

/** Columns of a thread as a list shows it: the page, the fan, the last message still shown, unread counts. */
const threadColumns = {
  id: col.int,
  creator_page_id: col.int,
  home_link: col.text,
  title: col.text,
  creator_user_id: col.int,
  fan_user_id: col.int,
  fan_name: col.text,
  blocked: col.bool,
  fan_unread: col.int,
  creator_unread: col.int,
  last_message_at: col.time,
  last_body: col.text.orNull,
  last_sender: col.text.orNull,
};

/**
 * Threads newest first, with the last message either side may still see (a taken-down one is left out). A thread
 * whose page is down or whose creator is banned is not listed: its messages are out of reach at once (decision 247).
 */
const threadsWhere = (where: Prisma.Sql, limit: number, offset: number) => Prisma.sql`
  SELECT t.id, t.creator_page_id, p.home_link, p.title, p.user_id AS creator_user_id, t.fan_user_id,
         COALESCE(f.nickname, 'Guest_' || right(f.uuid::text, 6)) AS fan_name, t.blocked_at IS NOT NULL AS blocked,
         t.fan_unread, t.creator_unread, t.last_message_at, last.body AS last_body, last.sender AS last_sender
  FROM message_threads t
  JOIN creator_pages p ON p.id = t.creator_page_id
  JOIN users c ON c.id = p.user_id
  JOIN users f ON f.id = t.fan_user_id
  LEFT JOIN LATERAL (SELECT m.body, m.sender FROM messages m WHERE m.thread_id = t.id AND m.state = 'active' ORDER BY m.id DESC LIMIT 1) last ON true
  WHERE ${where} AND p.state = 'active' AND c.banned_at IS NULL
  ORDER BY t.last_message_at DESC, t.id DESC
  LIMIT ${limit} OFFSET ${offset}`;

export const fanThreads = statement({
  columns: threadColumns,
  sql: (p: { userId: number; limit: number; offset: number }) => threadsWhere(Prisma.sql`t.fan_user_id = ${p.userId}`, p.limit, p.offset),
  example: { userId: 1, limit: 20, offset: 0 },
});

export const creatorThreads = statement({
  columns: threadColumns,
  sql: (p: { userId: number; limit: number; offset: number }) => threadsWhere(Prisma.sql`p.user_id = ${p.userId}`, p.limit, p.offset),
  example: { userId: 1, limit: 20, offset: 0 },
});

/** One thread for one of its two sides (the fan, or the page's creator), while its page is up and its creator not banned. */
export const threadFor = statement({
  columns: threadColumns,
  sql: (p: { threadId: number; userId: number }) =>
    threadsWhere(Prisma.sql`t.id = ${p.threadId} AND (t.fan_user_id = ${p.userId} OR p.user_id = ${p.userId})`, 1, 0),
  example: { threadId: 1, userId: 1 },
});

/**
 * The two sides of a thread for one of them, while its page is up and its creator not banned: what a send needs, in
 * one light statement (the send is on the path a message takes to the other side's stream, docs/decisions/311).
 */
export const threadSides = statement({
  columns: { id: col.int, creator_page_id: col.int, creator_user_id: col.int, fan_user_id: col.int, blocked: col.bool },
  sql: (p: { threadId: number; userId: number }) => Prisma.sql`
    SELECT t.id, t.creator_page_id, p.user_id AS creator_user_id, t.fan_user_id, t.blocked_at IS NOT NULL AS blocked
    FROM message_threads t JOIN creator_pages p ON p.id = t.creator_page_id JOIN users c ON c.id = p.user_id
    WHERE t.id = ${p.threadId} AND (t.fan_user_id = ${p.userId} OR p.user_id = ${p.userId}) AND p.state = 'active' AND c.banned_at IS NULL`,
  example: { threadId: 1, userId: 1 },
});

// ---- messages ----

/** A message, once per thread and key: a retried or double-clicked send inserts nothing the second time. */
export const insertMessage = statement({
  columns: { id: col.int },
  sql: (p: { threadId: number; sender: Side; body: string; libraryItemId: number | null; price: number; key: string }) => Prisma.sql`
    INSERT INTO messages (thread_id, sender, body, library_item_id, price, idempotency_key)
    VALUES (${p.threadId}, ${p.sender}, ${p.body}, ${p.libraryItemId}, ${p.price}, ${p.key})
    ON CONFLICT (thread_id, idempotency_key) DO NOTHING RETURNING id`,
  example: { threadId: 1, sender: "fan", body: "hello", libraryItemId: null, price: 0, key: "key" },
});

/** Members of the page now (a cancelled membership counts until its paid period ends), banned fans left out. */
const membersOf = (pageId: number, now: Date) => Prisma.sql`
  SELECT m.fan_user_id FROM creator_memberships m JOIN users u ON u.id = m.fan_user_id AND u.banned_at IS NULL
  WHERE m.creator_page_id = ${pageId} AND (m.status = 'active' OR (m.status = 'cancelled' AND m.paid_through > ${now}))`;

/** A thread for every member of the page that has none yet (a mass message reaches them too). */
export const openMemberThreads = statement({
  columns: {},
  sql: (p: { pageId: number; now: Date }) => Prisma.sql`
    INSERT INTO message_threads (creator_page_id, fan_user_id) SELECT ${p.pageId}, fan_user_id FROM (${membersOf(p.pageId, p.now)}) members
    ON CONFLICT (creator_page_id, fan_user_id) DO NOTHING`,
  example: { pageId: 1, now: new Date() },
});

/**
 * A mass message's copy in the thread of every member (after openMemberThreads, in the same transaction), counted as
 * unread there; a fan who blocked the creator gets none. Answers each copy with its thread and fan.
 */
export const copyToMembers = statement({
  columns: { message_id: col.int, thread_id: col.int, fan_user_id: col.int, fan_unread: col.int },
  sql: (p: { pageId: number; massId: number; body: string; libraryItemId: number | null; price: number; now: Date }) => Prisma.sql`
    WITH bumped AS (
      UPDATE message_threads t SET fan_unread = t.fan_unread + 1, last_message_at = ${p.now}
      FROM (${membersOf(p.pageId, p.now)}) members
      WHERE t.creator_page_id = ${p.pageId} AND t.fan_user_id = members.fan_user_id AND t.blocked_at IS NULL
      RETURNING t.id, t.fan_user_id, t.fan_unread
    ), copies AS (
      INSERT INTO messages (thread_id, sender, body, library_item_id, price, mass_message_id, idempotency_key)
      SELECT b.id, 'creator', ${p.body}, ${p.libraryItemId}, ${p.price}, ${p.massId}, 'mass:' || ${p.massId}::int FROM bumped b
      RETURNING id, thread_id
    )
    SELECT c.id AS message_id, c.thread_id, b.fan_user_id, b.fan_unread FROM copies c JOIN bumped b ON b.id = c.thread_id`,
  example: { pageId: 1, massId: 1, body: "hello", libraryItemId: null, price: 0, now: new Date() },
});

/** What a creator wrote to all members, once per page and key: a retried send finds the first and copies nothing. */
export const insertMassMessage = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number; body: string; libraryItemId: number | null; price: number; key: string }) => Prisma.sql`
    INSERT INTO mass_messages (creator_page_id, body, library_item_id, price, idempotency_key)
    VALUES (${p.pageId}, ${p.body}, ${p.libraryItemId}, ${p.price}, ${p.key})
    ON CONFLICT (creator_page_id, idempotency_key) DO NOTHING RETURNING id`,
  example: { pageId: 1, body: "hello", libraryItemId: null, price: 0, key: "key" },
});

/**
 * Claims a locked message for its fan: one conditional update, so of 20 unlocks at once one changes the row and the
 * others (waiting on its lock, then reading it again) change nothing. Only a message the creator sent, still shown.
 */
export const claimUnlock = statement({
  columns: { price: col.int, thread_id: col.int, creator_page_id: col.int, creator_user_id: col.int },
  sql: (p: { messageId: number; fanId: number; at: Date }) => Prisma.sql`
    UPDATE messages m SET unlocked_at = ${p.at}
    FROM message_threads t JOIN creator_pages p ON p.id = t.creator_page_id
    WHERE m.id = ${p.messageId} AND m.thread_id = t.id AND t.fan_user_id = ${p.fanId}
      AND m.sender = 'creator' AND m.price > 0 AND m.unlocked_at IS NULL AND m.state = 'active'
    RETURNING m.price, m.thread_id, t.creator_page_id, p.user_id AS creator_user_id`,
  example: { messageId: 1, fanId: 1, at: new Date() },
});

// ---- the console ----

/**
 * Threads holding a reported message (moderators' "reported threads"), the latest report first, with how many reports
 * their messages have and how many are still open.
 */
export const reportedThreads = statement({
  columns: {
    id: col.int,
    creator_page_id: col.int,
    home_link: col.text,
    creator_user_id: col.int,
    fan_user_id: col.int,
    reports: col.int,
    open_reports: col.int,
    last_reported_at: col.time,
  },
  sql: (p: { limit: number; offset: number; threadIds: number[] | null }) => Prisma.sql`
    SELECT t.id, t.creator_page_id, p.home_link, p.user_id AS creator_user_id, t.fan_user_id, count(r.id)::int AS reports,
           (count(r.id) FILTER (WHERE r.status = 'open'))::int AS open_reports, max(r.created_at) AS last_reported_at
    FROM reports r
    JOIN messages m ON r.target_type = 'message' AND m.id = r.target_id
    JOIN message_threads t ON t.id = m.thread_id
    JOIN creator_pages p ON p.id = t.creator_page_id
    WHERE ${p.threadIds === null ? Prisma.sql`true` : Prisma.sql`t.id = ANY(${p.threadIds}::int[])`}
    GROUP BY t.id, p.id
    ORDER BY max(r.created_at) DESC, t.id DESC
    LIMIT ${p.limit} OFFSET ${p.offset}`,
  example: { limit: 25, offset: 0, threadIds: null },
});

export const reportedThreadCount = statement({
  columns: { total: col.int },
  sql: () => Prisma.sql`
    SELECT count(DISTINCT m.thread_id)::int AS total FROM reports r JOIN messages m ON r.target_type = 'message' AND m.id = r.target_id`,
  example: {},
});

/** Paid messages unlocked per day: the console dashboard's series (issue 32 item 8, docs/decisions/309). */
export const unlocksPerDay = countsPerDay("messages", undefined, "unlocked_at");
