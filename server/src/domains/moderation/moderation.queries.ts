import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * Serialises work on one piece of content for the rest of the transaction: reports about it are resolved one at a time,
 * so two dismissals cannot both see the other still open.
 */
export const lockReportTarget = statement({
  columns: { locked: col.int },
  sql: (p: { targetType: string; targetId: number }) => Prisma.sql`
    SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`report-target:${p.targetType}:${p.targetId}`}, 0))`,
  example: { targetType: "task", targetId: 1 },
});

/** One evidence copy per content: two reports at once wait on this rather than copying twice. */
export const lockEvidenceTarget = statement({
  columns: { locked: col.int },
  sql: (p: { targetType: string; targetId: number }) => Prisma.sql`
    SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`evidence:${p.targetType}:${p.targetId}`}, 0))`,
  example: { targetType: "task", targetId: 1 },
});

/**
 * Bans and unbans of one account one at a time, from their start: what a ban reaches (sessions, tasks, memberships,
 * refunds) is then never reached by two at once in different orders, which deadlocked concurrent bans.
 */
export const lockAccountBans = statement({
  columns: { locked: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`ban:${p.userId}`}, 0))`,
  example: { userId: 1 },
});

// ---- transparency figures (DSA art. 15/24, docs/decisions/153) ----

/** An open end of a period (timestamps this far out are still ordinary dates to the driver). */
const END_OF_TIME = new Date("9999-12-31T00:00:00Z");

export interface Period {
  from?: Date;
  to?: Date;
}

const inPeriod = (column: "created_at" | "resolved_at", p: Period) =>
  Prisma.sql`${Prisma.raw(column)} >= ${p.from ?? new Date(0)} AND ${Prisma.raw(column)} < ${p.to ?? END_OF_TIME}`;

/** How many rows of `table` were created in the period, by `key` (an expression of the row), ordered by key. */
const countsBy = (table: "reports" | "decisions" | "appeals", key: string) =>
  statement({
    columns: { key: col.text, count: col.int },
    sql: (p: Period) => Prisma.sql`
      SELECT ${Prisma.raw(key)} AS key, count(*)::int AS count FROM ${Prisma.raw(table)} WHERE ${inPeriod("created_at", p)} GROUP BY 1 ORDER BY 1`,
    example: {},
  });

export const reportsByReason = countsBy("reports", "reason::text");
export const reportsBySource = countsBy("reports", "source::text");
export const reportsByOutcome = countsBy("reports", "status::text");
export const decisionsByAction = countsBy("decisions", "action::text");
export const decisionsByGround = countsBy("decisions", "ground::text");
export const decisionsByAutomation = countsBy("decisions", "CASE WHEN automated THEN 'automated' ELSE 'by_moderator' END");
export const appealsByOutcome = countsBy("appeals", "status::text");

/** Reports resolved in the period: how many, the median and 90th percentile of their time to action, and how many took longer than `targetSeconds`. */
export const resolvedTimes = statement({
  columns: { resolved: col.int, median: col.float.orNull, p90: col.float.orNull, late: col.int },
  sql: (p: Period & { targetSeconds: number }) => Prisma.sql`
    SELECT count(*)::int AS resolved,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM resolved_at - created_at)) AS median,
           percentile_cont(0.9) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM resolved_at - created_at)) AS p90,
           count(*) FILTER (WHERE EXTRACT(EPOCH FROM resolved_at - created_at) > ${p.targetSeconds})::int AS late
      FROM reports WHERE resolved_at IS NOT NULL AND ${inPeriod("resolved_at", p)}`,
  example: { targetSeconds: 3600 },
});

/** Reports made in the period that are still open and older than `targetSeconds`. */
export const openBreaching = statement({
  columns: { n: col.int },
  sql: (p: Period & { targetSeconds: number }) => Prisma.sql`
    SELECT count(*)::int AS n FROM reports WHERE status = 'open' AND created_at < now() - make_interval(secs => ${p.targetSeconds}) AND ${inPeriod("created_at", p)}`,
  example: { targetSeconds: 3600 },
});
