import { Prisma } from "../../db/generated/client.ts";
import type { LibraryVisibility } from "../../contract/creators.ts";
import { col, countsPerDay, statement } from "../../db/statement.ts";
import { FINISHED, SHOWN } from "../generation/generation.queries.ts";

// ---- pages and subscriptions ----

/**
 * A page as a link finds it: case-insensitive, and only while it is up (a takedown or suspension hides it, and so
 * does its creator's ban, docs/decisions/247).
 */
export const activePageByLink = statement({
  columns: { id: col.int },
  sql: (p: { homeLink: string }) => Prisma.sql`SELECT p.id FROM creator_pages p JOIN users u ON u.id = p.user_id
          WHERE lower(p.home_link) = lower(${p.homeLink}) AND p.state = 'active' AND u.banned_at IS NULL`,
  example: { homeLink: "someone" },
});

/**
 * Holds a page row against its creator's ban (which locks it FOR UPDATE) for the rest of a sale's transaction: a join
 * or request then commits before the ban ends the page's dealings, or sees the ban (creators.pages.ts holdLivePage).
 */
export const holdPage = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number }) => Prisma.sql`SELECT id FROM creator_pages WHERE id = ${p.pageId} FOR KEY SHARE`,
  example: { pageId: 1 },
});

/** Subscribes (follows) a fan, or resubscribes a cancelled subscription; one row per fan and page. Answers a row only when this call started the follow. */
export const subscribe = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number; userId: number; now: Date }) => Prisma.sql`INSERT INTO subscriptions (creator_page_id, user_id, active, created_at)
          VALUES (${p.pageId}, ${p.userId}, true, ${p.now})
          ON CONFLICT (creator_page_id, user_id) DO UPDATE SET active = true, cancelled_at = NULL WHERE subscriptions.active = false
          RETURNING id`,
  example: { pageId: 1, userId: 1, now: new Date() },
});

// ---- follows (docs/decisions/309) ----

/**
 * One page of a follower's "Following" feed, newest first: the shared gallery creations and the library items of the
 * pages they follow that are up (not taken down, owner not banned). Each followed page gives at most `take` (= offset
 * + limit) of each kind from its own index (0230), so a page reads a few entries per follow, never all their items.
 * A creation both shared and on the page's library shows once, as the library item (its visibility decides). Media
 * keys are read for the caller to sign, or not: members-only ones never leave the server unless the viewer may see them.
 */
export const followingFeed = statement({
  columns: {
    source: col.text,
    id: col.int,
    task_id: col.int,
    page_id: col.int,
    home_link: col.text,
    title: col.text,
    created_at: col.time,
    visibility: col.text,
    mode: col.text,
    output_key: col.text,
    poster_key: col.text.orNull,
  },
  sql: (p: { userId: number; limit: number; offset: number }) => Prisma.sql`
    WITH followed AS (
      SELECT cp.id, cp.user_id, cp.home_link, cp.title FROM subscriptions s
      JOIN creator_pages cp ON cp.id = s.creator_page_id AND cp.state = 'active'
      JOIN users owner ON owner.id = cp.user_id AND owner.banned_at IS NULL
      WHERE s.user_id = ${p.userId} AND s.active)
    SELECT f.source, f.id, f.task_id, f.page_id, f.home_link, f.title, f.created_at, f.visibility, f.mode, f.output_key, f.poster_key
    FROM (
      SELECT 'gallery' AS source, g.id, g.id AS task_id, fl.id AS page_id, fl.home_link, fl.title, g.created_at,
             'public' AS visibility, g.mode::text AS mode, g.output_key, g.poster_key
      FROM followed fl CROSS JOIN LATERAL (
        SELECT t.id, t.created_at, t.mode, t.output_key, t.poster_key FROM generation_tasks t
        WHERE t.user_id = fl.user_id AND ${SHOWN} AND t.output_key IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM creator_library_items i WHERE i.creator_page_id = fl.id AND i.task_id = t.id)
        ORDER BY t.created_at DESC LIMIT ${p.limit + p.offset}) g
      UNION ALL
      SELECT 'library', l.id, l.task_id, fl.id, fl.home_link, fl.title, l.created_at, l.visibility::text, l.mode::text, l.output_key, l.poster_key
      FROM followed fl CROSS JOIN LATERAL (
        SELECT i.id, i.task_id, i.created_at, i.visibility, t.mode, t.output_key, t.poster_key FROM creator_library_items i
        JOIN generation_tasks t ON t.id = i.task_id AND t.user_id = fl.user_id AND ${FINISHED} AND t.output_key IS NOT NULL
        WHERE i.creator_page_id = fl.id ORDER BY i.created_at DESC LIMIT ${p.limit + p.offset}) l
    ) f
    ORDER BY f.created_at DESC, f.source, f.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`,
  example: { userId: 1, limit: 20, offset: 0 },
});

// ---- custom requests ----

/** A fan's request, once per fan and idempotency key: no row when the key was used before. */
export const insertCustomRequest = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number; fanId: number; text: string; price: number; idempotencyKey: string; expiresAt: Date }) => Prisma.sql`
          INSERT INTO custom_requests (creator_page_id, fan_user_id, text, price, idempotency_key, expires_at)
          VALUES (${p.pageId}, ${p.fanId}, ${p.text}, ${p.price}, ${p.idempotencyKey}, ${p.expiresAt})
          ON CONFLICT (fan_user_id, idempotency_key) DO NOTHING RETURNING id`,
  example: { pageId: 1, fanId: 1, text: "a request", price: 10, idempotencyKey: "key", expiresAt: new Date() },
});

/** A fan's tip, once per fan key: a retry (or a twin waiting on the unique index) inserts nothing and finds the first. */
export const insertTip = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number; fanId: number; libraryItemId: number | null; amount: number; message: string | null; idempotencyKey: string }) => Prisma.sql`
          INSERT INTO creator_tips (creator_page_id, fan_user_id, library_item_id, amount, message, idempotency_key)
          VALUES (${p.pageId}, ${p.fanId}, ${p.libraryItemId}, ${p.amount}, ${p.message}, ${p.idempotencyKey})
          ON CONFLICT (fan_user_id, idempotency_key) DO NOTHING RETURNING id`,
  example: { pageId: 1, fanId: 1, libraryItemId: null, amount: 10, message: "thanks", idempotencyKey: "key" },
});

// ---- the library ----

/**
 * Publishes a creation on the page, or changes its visibility: one statement, so a double tap cannot race into a
 * duplicate-key error. `inserted` is false when the item was there (a row a statement inserted has no xmax).
 */
export const upsertLibraryItem = statement({
  columns: { id: col.int, inserted: col.bool },
  sql: (p: { pageId: number; taskId: number; visibility: LibraryVisibility }) => Prisma.sql`
          INSERT INTO creator_library_items (creator_page_id, task_id, visibility) VALUES (${p.pageId}, ${p.taskId}, ${p.visibility}::"LibraryVisibility")
          ON CONFLICT (creator_page_id, task_id) DO UPDATE SET visibility = EXCLUDED.visibility RETURNING id, (xmax = 0) AS inserted`,
  example: { pageId: 1, taskId: 1, visibility: "public" },
});

/**
 * Takes the lock of a quota (a fan's open requests, a page's library items) until the transaction ends: a row just
 * added is counted with every other committed one, so concurrent requests cannot pass the quota together (decision 251).
 */
export const lockCreatorQuota = statement({
  columns: { locked: col.int },
  sql: (p: { kind: "open-requests" | "library-items"; id: number }) =>
    Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`creator-quota:${p.kind}:${p.id}`}, 0))`,
  example: { kind: "open-requests", id: 1 },
});

export const deleteLibraryItem = statement({
  columns: { task_id: col.int },
  sql: (p: { itemId: number; pageId: number }) =>
    Prisma.sql`DELETE FROM creator_library_items WHERE id = ${p.itemId} AND creator_page_id = ${p.pageId} RETURNING task_id`,
  example: { itemId: 1, pageId: 1 },
});

// ---- paid memberships ----

/**
 * Moves a due membership to its next period (the period number is the guard against a second sweep), at the lower of
 * its price and the page's, while the page is up and offers memberships.
 */
export const renewMembership = statement({
  columns: { fan_user_id: col.int, price: col.int, creator_id: col.int },
  sql: (p: { id: number; period: number; now: Date; paidThrough: Date }) => Prisma.sql`
          UPDATE creator_memberships m SET period = m.period + 1, paid_through = ${p.paidThrough}, price = LEAST(m.price, p.membership_price)
          FROM creator_pages p
          WHERE m.id = ${p.id} AND m.status = 'active' AND m.period = ${p.period} AND m.paid_through <= ${p.now}
            AND p.id = m.creator_page_id AND p.state = 'active' AND p.membership_price IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id IN (m.fan_user_id, p.user_id) AND u.banned_at IS NOT NULL)
          RETURNING m.fan_user_id, m.price, p.user_id AS creator_id`,
  example: { id: 1, period: 1, now: new Date(), paidThrough: new Date() },
});

/** A fan's first membership of a page; no row when there is one already. */
export const insertMembership = statement({
  columns: { id: col.int },
  sql: (p: { pageId: number; fanId: number; price: number; through: Date; now: Date }) => Prisma.sql`
          INSERT INTO creator_memberships (creator_page_id, fan_user_id, price, status, period, paid_through, created_at)
          VALUES (${p.pageId}, ${p.fanId}, ${p.price}, 'active', 1, ${p.through}, ${p.now})
          ON CONFLICT (creator_page_id, fan_user_id) DO NOTHING RETURNING id`,
  example: { pageId: 1, fanId: 1, price: 10, through: new Date(), now: new Date() },
});

/** Starts the next period of an ended membership, or of a cancelled one whose paid period is over. */
export const restartMembership = statement({
  columns: { id: col.int, period: col.int },
  sql: (p: { pageId: number; fanId: number; price: number; through: Date; now: Date }) => Prisma.sql`
          UPDATE creator_memberships SET status = 'active', period = period + 1, price = ${p.price}, paid_through = ${p.through}, cancelled_at = NULL, ended_at = NULL
          WHERE creator_page_id = ${p.pageId} AND fan_user_id = ${p.fanId} AND (status = 'ended' OR (status = 'cancelled' AND paid_through <= ${p.now}))
          RETURNING id, period`,
  example: { pageId: 1, fanId: 1, price: 10, through: new Date(), now: new Date() },
});

/**
 * Ends every running membership of a page at once (its creator was banned), answering what each had paid for: the
 * caller refunds the unused part of the current period. Conditional on running, so a second ban finds none.
 */
export const endPageMemberships = statement({
  columns: { id: col.int, fan_user_id: col.int, price: col.int, period: col.int, paid_through: col.time },
  sql: (p: { pageId: number; now: Date }) => Prisma.sql`
          UPDATE creator_memberships SET status = 'ended', ended_at = ${p.now}
          WHERE creator_page_id = ${p.pageId} AND status IN ('active', 'cancelled')
          RETURNING id, fan_user_id, price, period, paid_through`,
  example: { pageId: 1, now: new Date() },
});

// ---- guest merge ----

/** The guest's rows for pages the account has a row for too go (the account's row stays); the rest then move over. */
const dropSharedGuestRows = (table: "subscriptions" | "creator_memberships", userColumn: "user_id" | "fan_user_id") =>
  statement({
    columns: {},
    sql: (p: { fromUserId: number; toUserId: number }) => Prisma.sql`DELETE FROM ${Prisma.raw(table)} s USING ${Prisma.raw(table)} t
        WHERE s.${Prisma.raw(userColumn)} = ${p.fromUserId} AND t.${Prisma.raw(userColumn)} = ${p.toUserId} AND t.creator_page_id = s.creator_page_id`,
    example: { fromUserId: 1, toUserId: 2 },
  });

export const dropSharedGuestSubscriptions = dropSharedGuestRows("subscriptions", "user_id");
export const dropSharedGuestMemberships = dropSharedGuestRows("creator_memberships", "fan_user_id");

// ---- payouts ----

/** Locks the creator's page row for the rest of the transaction (why: payouts.earnings.ts lockPage). */
export const lockPageOfUser = statement({
  columns: { id: col.int, user_id: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT id, user_id FROM creator_pages WHERE user_id = ${p.userId} FOR UPDATE`,
  example: { userId: 1 },
});

export const lockPageById = statement({
  columns: { id: col.int, user_id: col.int },
  sql: (p: { pageId: number }) => Prisma.sql`SELECT id, user_id FROM creator_pages WHERE id = ${p.pageId} FOR UPDATE`,
  example: { pageId: 1 },
});

// ---- the console dashboard's figures, per UTC day since `sinceUtc` (UTC wall-clock text) ----

export const newPagesPerDay = countsPerDay("creator_pages");
/** A follow is a subscription row created in the window (a fan who unsubscribes and comes back is one row). */
export const newFollowsPerDay = countsPerDay("subscriptions");
/** Tips sent (a reversed one included: it was sent that day; staff reverse it from the tips list). */
export const tipsPerDay = countsPerDay("creator_tips");

export const requestsPerDay = statement({
  columns: { day: col.text, count: col.int, credits: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, n::int AS count, c::int AS credits
          FROM (SELECT date_trunc('day', created_at) AS d, count(*) AS n, sum(price) AS c FROM custom_requests WHERE created_at >= ${p.sinceUtc}::timestamp GROUP BY 1) x ORDER BY 1`,
  example: { sinceUtc: "2026-01-01 00:00:00" },
});
