import { Prisma } from "../../db/generated/client.ts";
import { col, countsPerDay, statement } from "../../db/statement.ts";

/** Characters' pictures and clips asked for per day (issue 50): the console dashboard's series. */
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
