import { Prisma } from "../../db/generated/client.ts";
import { col, countsPerDay, statement } from "../../db/statement.ts";

// Days are grouped as timestamps and formatted after aggregation: one to_char per group, not per row. `sinceUtc` and
// `nowUtc` are UTC wall-clock text, as the columns are UTC wall-clock TIMESTAMPs (dashboard.service.ts).

/** Money taken per day, provider and currency. */
export const revenuePerDay = statement({
  columns: { day: col.text, provider: col.text, currency: col.text, amountMinor: col.int, orders: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
    SELECT to_char(d, 'YYYY-MM-DD') AS day, provider, currency, amount::int AS "amountMinor", n::int AS orders
    FROM (SELECT date_trunc('day', paid_at) AS d, provider, currency, sum(final_price_minor) AS amount, count(*) AS n
          FROM orders WHERE status = 'paid' AND paid_at >= ${p.sinceUtc}::timestamp GROUP BY 1, 2, 3) x
    ORDER BY 1, 2, 3`,
  example: { sinceUtc: "2026-01-01T00:00:00.000" },
});

/** Orders opened in the window, by their status now. */
export const ordersByStatus = statement({
  columns: { status: col.text, count: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
    SELECT status::text AS status, count(*)::int AS count FROM orders WHERE created_at >= ${p.sinceUtc}::timestamp GROUP BY 1 ORDER BY 1`,
  example: { sinceUtc: "2026-01-01T00:00:00.000" },
});

/** Generation tasks per day, status and mode. */
export const generationsPerDay = statement({
  columns: { day: col.text, status: col.text, mode: col.text, count: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
    SELECT to_char(d, 'YYYY-MM-DD') AS day, status::text AS status, mode::text AS mode, n::int AS count
    FROM (SELECT date_trunc('day', created_at) AS d, status, mode, count(*) AS n
          FROM generation_tasks WHERE created_at >= ${p.sinceUtc}::timestamp GROUP BY 1, 2, 3) x
    ORDER BY 1, 2, 3`,
  example: { sinceUtc: "2026-01-01T00:00:00.000" },
});

/** Accounts made per day and way of signing in (merged guests are not counted twice). */
export const signupsPerDay = statement({
  columns: { day: col.text, loginType: col.text, count: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
    SELECT to_char(d, 'YYYY-MM-DD') AS day, login_type::text AS "loginType", n::int AS count
    FROM (SELECT date_trunc('day', created_at) AS d, login_type, count(*) AS n
          FROM users WHERE created_at >= ${p.sinceUtc}::timestamp AND merged_into_id IS NULL GROUP BY 1, 2) x
    ORDER BY 1, 2`,
  example: { sinceUtc: "2026-01-01T00:00:00.000" },
});

/** Open reports by how long they have waited (the dashboard's age buckets) and reason. */
export const openReportsByAge = statement({
  columns: { bucket: col.text, reason: col.text, count: col.int },
  sql: (p: { nowUtc: string }) => Prisma.sql`
    SELECT CASE WHEN age < interval '1 hour' THEN 'under_1h' WHEN age < interval '1 day' THEN '1h_24h'
                WHEN age < interval '7 days' THEN '1d_7d' ELSE 'over_7d' END AS bucket,
           reason::text AS reason, count(*)::int AS count
    FROM (SELECT ${p.nowUtc}::timestamp - created_at AS age, reason FROM reports WHERE status = 'open') r
    GROUP BY 1, 2`,
  example: { nowUtc: "2026-01-01T00:00:00.000" },
});

/** Characters' pictures and clips in chat asked for per day (issue 50), read across chat's and generation's rows. */
export const chatMediaPerDay = countsPerDay("chat_media", Prisma.sql`task_id IS NOT NULL`);

/** Credits spent per day on characters' pictures and clips: charged in credits and not refunded (failed ones were). */
export const chatMediaCreditsPerDay = statement({
  columns: { day: col.text, count: col.int },
  sql: (p: { sinceUtc: string }) => Prisma.sql`
    SELECT to_char(date_trunc('day', m.created_at), 'YYYY-MM-DD') AS day, coalesce(sum(t.cost), 0)::int AS count
    FROM chat_media m JOIN generation_tasks t ON t.id = m.task_id
    WHERE m.created_at >= ${p.sinceUtc}::timestamp AND t.paid_with = 'credits' AND t.status <> 'failed'
    GROUP BY 1 ORDER BY 1`,
  example: { sinceUtc: "2026-01-01T00:00:00.000" },
});
