import { Prisma } from "../../db/generated/client.ts";
import type { Db } from "../../db/client.ts";
import { ACTION_TARGET_HOURS } from "../../contract/moderation.ts";

/** An open end of a period (timestamps this far out are still ordinary dates to the driver). */
const END_OF_TIME = new Date("9999-12-31T00:00:00Z");

export interface Period {
  from?: Date;
  to?: Date;
}

/** Time from a report to its resolution, in seconds, over reports resolved in the period; breaches include reports still open past the target. */
export interface TimeToAction {
  resolved: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  /** resolved after the target, or still open and older than it */
  breaches: number;
  open_breaching: number;
  target_hours: number;
}

export interface Count {
  key: string;
  count: number;
}

/**
 * Transparency figures (DSA art. 15/24, docs/decisions/153): reports by reason, source and outcome; decisions by
 * action, ground and automation; appeals by outcome; time to action. One SQL aggregate each, over any period.
 */
export function createTransparencyService(db: Db) {
  const range = (column: string, p: Period) =>
    Prisma.sql`${Prisma.raw(column)} >= ${p.from ?? new Date(0)} AND ${Prisma.raw(column)} < ${p.to ?? END_OF_TIME}`;
  const counts = async (sql: Prisma.Sql) => (await db.$queryRaw<{ key: string; count: bigint }[]>(sql)).map((r) => ({ key: r.key, count: Number(r.count) }));

  async function timeToAction(p: Period): Promise<TimeToAction> {
    const target = ACTION_TARGET_HOURS * 3600;
    const [row] = await db.$queryRaw<{ resolved: bigint; median: number | null; p90: number | null; late: bigint }[]>(Prisma.sql`
      SELECT count(*) AS resolved,
             percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM resolved_at - created_at)) AS median,
             percentile_cont(0.9) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM resolved_at - created_at)) AS p90,
             count(*) FILTER (WHERE EXTRACT(EPOCH FROM resolved_at - created_at) > ${target}) AS late
        FROM reports WHERE resolved_at IS NOT NULL AND ${range("resolved_at", p)}`);
    const [open] = await db.$queryRaw<{ n: bigint }[]>(Prisma.sql`
      SELECT count(*) AS n FROM reports WHERE status = 'open' AND created_at < now() - make_interval(secs => ${target}) AND ${range("created_at", p)}`);
    const round = (v: number | null) => (v === null ? null : Math.round(Number(v)));
    return {
      resolved: Number(row?.resolved ?? 0),
      median_seconds: round(row?.median ?? null),
      p90_seconds: round(row?.p90 ?? null),
      breaches: Number(row?.late ?? 0) + Number(open?.n ?? 0),
      open_breaching: Number(open?.n ?? 0),
      target_hours: ACTION_TARGET_HOURS,
    };
  }

  async function report(p: Period) {
    const [reportsByReason, reportsBySource, reportsByOutcome, decisionsByAction, decisionsByGround, automated, appeals, tta] = await Promise.all([
      counts(Prisma.sql`SELECT reason::text AS key, count(*) AS count FROM reports WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT source::text AS key, count(*) AS count FROM reports WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT status::text AS key, count(*) AS count FROM reports WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT action::text AS key, count(*) AS count FROM decisions WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT ground::text AS key, count(*) AS count FROM decisions WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT CASE WHEN automated THEN 'automated' ELSE 'by_moderator' END AS key, count(*) AS count FROM decisions WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      counts(Prisma.sql`SELECT status::text AS key, count(*) AS count FROM appeals WHERE ${range("created_at", p)} GROUP BY 1 ORDER BY 1`),
      timeToAction(p),
    ]);
    return {
      from: p.from?.toISOString() ?? null,
      to: p.to?.toISOString() ?? null,
      reports_by_reason: reportsByReason,
      reports_by_source: reportsBySource,
      reports_by_outcome: reportsByOutcome,
      decisions_by_action: decisionsByAction,
      decisions_by_ground: decisionsByGround,
      decisions_by_automation: automated,
      appeals_by_outcome: appeals,
      time_to_action: tta,
    };
  }

  return {
    timeToAction,
    report,
    /** The same figures as CSV rows `section,key,value`, for the console's export. */
    async csv(p: Period) {
      const r = await report(p);
      const lines = ["section,key,value", `period,from,${r.from ?? ""}`, `period,to,${r.to ?? ""}`];
      for (const section of ["reports_by_reason", "reports_by_source", "reports_by_outcome", "decisions_by_action", "decisions_by_ground", "decisions_by_automation", "appeals_by_outcome"] as const) {
        for (const c of r[section]) lines.push(`${section},${c.key},${c.count}`);
      }
      for (const [key, value] of Object.entries(r.time_to_action)) lines.push(`time_to_action,${key},${value ?? ""}`);
      return `${lines.join("\n")}\n`;
    },
  };
}

export type TransparencyService = ReturnType<typeof createTransparencyService>;
