import type { Db } from "../../db/client.ts";

/**
 * Creator figures for the console dashboard (issue 16 item 6), counted from the creators domain's own rows per UTC
 * day since `sinceUtc` (UTC wall-clock text, as the dashboard compares its TIMESTAMP columns).
 */
export function createCreatorFigures(db: Db) {
  return {
    async perDay(sinceUtc: string) {
      const [pages, follows, requests] = await Promise.all([
        db.$queryRaw<{ day: string; count: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, n::int AS count
          FROM (SELECT date_trunc('day', created_at) AS d, count(*) AS n FROM creator_pages WHERE created_at >= ${sinceUtc}::timestamp GROUP BY 1) x ORDER BY 1`,
        // a follow is a subscription row created in the window (a fan who unsubscribes and comes back is one row)
        db.$queryRaw<{ day: string; count: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, n::int AS count
          FROM (SELECT date_trunc('day', created_at) AS d, count(*) AS n FROM subscriptions WHERE created_at >= ${sinceUtc}::timestamp GROUP BY 1) x ORDER BY 1`,
        db.$queryRaw<{ day: string; count: number; credits: number }[]>`
          SELECT to_char(d, 'YYYY-MM-DD') AS day, n::int AS count, c::int AS credits
          FROM (SELECT date_trunc('day', created_at) AS d, count(*) AS n, sum(price) AS c FROM custom_requests WHERE created_at >= ${sinceUtc}::timestamp GROUP BY 1) x ORDER BY 1`,
      ]);
      return { newPages: pages, newFollows: follows, requests };
    },
  };
}

export type CreatorFigures = ReturnType<typeof createCreatorFigures>;
