import type { Db } from "../../db/client.ts";
import { ACTION_TARGET_HOURS } from "../../contract/moderation.ts";
import * as q from "./moderation.queries.ts";
import type { Period } from "./moderation.queries.ts";

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
  async function timeToAction(p: Period): Promise<TimeToAction> {
    const target = ACTION_TARGET_HOURS * 3600;
    const row = await q.resolvedTimes.first(db, { ...p, targetSeconds: target });
    const open = await q.openBreaching.first(db, { ...p, targetSeconds: target });
    const round = (v: number | null) => (v === null ? null : Math.round(v));
    return {
      resolved: row?.resolved ?? 0,
      median_seconds: round(row?.median ?? null),
      p90_seconds: round(row?.p90 ?? null),
      breaches: (row?.late ?? 0) + (open?.n ?? 0),
      open_breaching: open?.n ?? 0,
      target_hours: ACTION_TARGET_HOURS,
    };
  }

  async function report(p: Period) {
    const [reportsByReason, reportsBySource, reportsByOutcome, decisionsByAction, decisionsByGround, automated, appeals, tta] = await Promise.all([
      q.reportsByReason.rows(db, p),
      q.reportsBySource.rows(db, p),
      q.reportsByOutcome.rows(db, p),
      q.decisionsByAction.rows(db, p),
      q.decisionsByGround.rows(db, p),
      q.decisionsByAutomation.rows(db, p),
      q.appealsByOutcome.rows(db, p),
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
      for (const section of [
        "reports_by_reason",
        "reports_by_source",
        "reports_by_outcome",
        "decisions_by_action",
        "decisions_by_ground",
        "decisions_by_automation",
        "appeals_by_outcome",
      ] as const) {
        for (const c of r[section]) lines.push(`${section},${c.key},${c.count}`);
      }
      for (const [key, value] of Object.entries(r.time_to_action)) lines.push(`time_to_action,${key},${value ?? ""}`);
      return `${lines.join("\n")}\n`;
    },
  };
}

export type TransparencyService = ReturnType<typeof createTransparencyService>;
