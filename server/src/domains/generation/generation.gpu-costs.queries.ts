import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * GPU seconds and price per unit (a started price block of video, or an image), per template, workflow and
 * resolution over the last 30 days of finished GPU runs (issue 34, decision 239).
 */
export const measuredGpuCosts = statement({
  columns: {
    template_id: col.int.orNull,
    workflow: col.text,
    resolution: col.text.orNull,
    runs: col.int,
    gpu_seconds_per_unit: col.float,
    price_per_unit: col.float,
  },
  sql: () => Prisma.sql`
    SELECT r.template_id, r.workflow, r.resolution, count(*)::int AS runs,
      (sum(r.gpu_seconds) / greatest(1, sum(r.units)))::float8 AS gpu_seconds_per_unit,
      (sum(t.cost)::float8 / greatest(1, sum(r.units)))::float8 AS price_per_unit
    FROM gpu_runs r JOIN generation_tasks t ON t.id = r.task_id
    WHERE r.created_at > now() - interval '30 days'
    GROUP BY r.template_id, r.workflow, r.resolution
    ORDER BY r.template_id NULLS LAST, r.workflow, r.resolution`,
  example: {},
});
