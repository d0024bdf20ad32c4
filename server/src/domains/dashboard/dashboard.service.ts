import type { Db } from "../../db/client.ts";
import type { CreatorFigures } from "../creators/figures.service.ts";
import { generationsPerDay, openReportsByAge, ordersByStatus, revenuePerDay, signupsPerDay } from "./dashboard.queries.ts";

/** A figure counted per UTC day since `sinceUtc` (UTC wall-clock text) by the domain that owns its rows. */
export type DayCounts = (sinceUtc: string) => Promise<{ day: string; count: number }[]>;

/** Open reports by how long they have waited; the buckets the moderators' backlog chart shows. */
const AGE_BUCKETS = ["under_1h", "1h_24h", "1d_7d", "over_7d"] as const;

/**
 * The console dashboard: every figure is one aggregate query over the last `days` days (UTC days),
 * so the browser receives a few hundred numbers however many orders and tasks there are.
 */
export function createDashboardService(db: Db, creators: CreatorFigures, activity: Record<string, DayCounts>) {
  /** Every activity series (server/src/dashboard-activity.ts) as rows of series, day and count. */
  async function activityRows(sinceUtc: string) {
    const all = await Promise.all(Object.entries(activity).map(async ([series, counts]) => (await counts(sinceUtc)).map((r) => ({ series, ...r }))));
    return all.flat();
  }

  return {
    async summary(days: number, now = new Date()) {
      const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
      // the columns are UTC wall-clock TIMESTAMPs (Prisma's mapping): compare with UTC wall-clock text, whatever the session time zone
      const sinceUtc = since.toISOString().slice(0, 23);
      const nowUtc = now.toISOString().slice(0, 23);
      const [revenue, orders, generations, signups, reports, creatorFigures, activityFigures] = await Promise.all([
        revenuePerDay.rows(db, { sinceUtc }),
        ordersByStatus.rows(db, { sinceUtc }),
        generationsPerDay.rows(db, { sinceUtc }),
        signupsPerDay.rows(db, { sinceUtc }),
        openReportsByAge.rows(db, { nowUtc }),
        // the creators domain counts its own rows (new pages, custom requests)
        creators.perDay(sinceUtc),
        activityRows(sinceUtc),
      ]);
      return {
        since: since.toISOString(),
        days,
        revenue,
        ordersByStatus: orders,
        generations,
        signups,
        openReports: reports,
        ageBuckets: AGE_BUCKETS,
        creators: creatorFigures,
        activitySeries: Object.keys(activity),
        activity: activityFigures,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
