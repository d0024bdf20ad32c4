import type { Db } from "../../db/client.ts";
import type { CreatorFigures } from "../creators/figures.service.ts";

/** Open reports by how long they have waited; the buckets the moderators' backlog chart shows. */
const AGE_BUCKETS = ["under_1h", "1h_24h", "1d_7d", "over_7d"] as const;

/**
 * The console dashboard: every figure is one aggregate query over the last `days` days (UTC days),
 * so the browser receives a few hundred numbers however many orders and tasks there are.
 */
export function createDashboardService(db: Db, creators: CreatorFigures) {
  return {
    async summary(days: number, now = new Date()) {
      const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
      // days are grouped as timestamps and formatted after aggregation: one to_char per group, not per row.
      // the columns are UTC wall-clock TIMESTAMPs (Prisma's mapping): compare with UTC wall-clock text, whatever the session time zone
      const sinceUtc = since.toISOString().slice(0, 23);
      const nowUtc = now.toISOString().slice(0, 23);
      const [revenue, orders, generations, signups, reports, creatorFigures] = await Promise.all([
        db.$queryRaw<{ day: string; provider: string; currency: string; amountMinor: number; orders: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, provider, currency, amount::int AS "amountMinor", n::int AS orders
          FROM (SELECT date_trunc('day', paid_at) AS d, provider, currency, sum(final_price_minor) AS amount, count(*) AS n
                FROM orders WHERE status = 'paid' AND paid_at >= ${sinceUtc}::timestamp GROUP BY 1, 2, 3) x
          ORDER BY 1, 2, 3`,
        db.$queryRaw<{ status: string; count: number }[]>`
          SELECT status::text AS status, count(*)::int AS count FROM orders WHERE created_at >= ${sinceUtc}::timestamp GROUP BY 1 ORDER BY 1`,
        db.$queryRaw<{ day: string; status: string; mode: string; count: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, status::text AS status, mode::text AS mode, n::int AS count
          FROM (SELECT date_trunc('day', created_at) AS d, status, mode, count(*) AS n
                FROM generation_tasks WHERE created_at >= ${sinceUtc}::timestamp GROUP BY 1, 2, 3) x
          ORDER BY 1, 2, 3`,
        db.$queryRaw<{ day: string; loginType: string; count: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, login_type::text AS "loginType", n::int AS count
          FROM (SELECT date_trunc('day', created_at) AS d, login_type, count(*) AS n
                FROM users WHERE created_at >= ${sinceUtc}::timestamp AND merged_into_id IS NULL GROUP BY 1, 2) x
          ORDER BY 1, 2`,
        db.$queryRaw<{ bucket: string; reason: string; count: number }[]>`
          SELECT CASE WHEN age < interval '1 hour' THEN 'under_1h' WHEN age < interval '1 day' THEN '1h_24h'
                      WHEN age < interval '7 days' THEN '1d_7d' ELSE 'over_7d' END AS bucket,
                 reason::text AS reason, count(*)::int AS count
          FROM (SELECT ${nowUtc}::timestamp - created_at AS age, reason FROM reports WHERE status = 'open') r
          GROUP BY 1, 2`,
        // the creators domain counts its own rows (new pages, follows, custom requests)
        creators.perDay(sinceUtc),
      ]);
      return { since: since.toISOString(), days, revenue, ordersByStatus: orders, generations, signups, openReports: reports, ageBuckets: AGE_BUCKETS, creators: creatorFigures };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
