import type { Db, Tx } from "../../db/client.ts";
import type { ReportTarget } from "../../db/generated/enums.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { RESOURCE, type ContentOwners } from "./moderated-content.ts";
import type { Bans } from "./moderation.bans.ts";
import { recordDecision, type Decided } from "./moderation.decisions.ts";
import type { TellNotifier } from "./moderation.notifier.ts";
import { lockReportTarget } from "./moderation.queries.ts";
import type { Preserve } from "./moderation.reports.ts";

interface TakedownDeps {
  db: Db;
  audit: AuditService;
  content: ContentOwners;
  bans: Bans;
  /** Puts taken-down media on the perceptual-hash blocklist (screening's blocklist.blockTakenDown, issue 19). */
  blockTakenDown: (tx: Tx, targetType: ReportTarget, targetId: number) => Promise<void>;
  preserve: Preserve;
  tellNotifier: TellNotifier;
}

/** Answers an open report (404 when there is none, 409 once resolved), audited. */
async function resolve(
  { audit }: Pick<TakedownDeps, "audit">,
  tx: Tx,
  staffId: number,
  reportId: number,
  status: "dismissed" | "actioned",
  action: string,
  reason: string,
) {
  const before = await tx.report.findUnique({ where: { id: reportId } });
  if (!before) throw HttpError.notFound();
  if (before.status !== "open") throw HttpError.conflict("This report is already resolved");
  const after = await tx.report.update({ where: { id: reportId, status: "open" }, data: { status, resolvedAt: new Date(), resolvedById: staffId } });
  await audit.record(tx, { staffId, action, resource: "Report", resourceId: reportId, before, after, reason });
  return after;
}

/**
 * A dismissed underage report gives back what it suspended, unless another open underage report about the same
 * content still holds it; content taken down stays down (only "suspended" turns back to "active").
 */
async function liftSuspension(
  { audit, content }: Pick<TakedownDeps, "audit" | "content">,
  tx: Tx,
  staffId: number,
  report: { id: number; targetType: ReportTarget; targetId: number; suspendedContent: boolean },
  reason: string,
) {
  if (!report.suspendedContent) return;
  // reports about one piece of content are resolved one at a time, so two dismissals cannot both see the other still open
  await lockReportTarget.rows(tx, report);
  const holding = await tx.report.count({
    where: { targetType: report.targetType, targetId: report.targetId, suspendedContent: true, status: "open", id: { not: report.id } },
  });
  if (holding) return;
  if (await content[report.targetType].setState(tx, report.targetId, "active", "suspended")) {
    await tx.decision.updateMany({
      where: { action: "hold", targetType: report.targetType, targetId: report.targetId, reversedAt: null },
      data: { reversedAt: new Date() },
    });
    await audit.record(tx, {
      staffId,
      action: "restore",
      resource: RESOURCE[report.targetType],
      resourceId: report.targetId,
      before: { id: report.targetId, state: "suspended" },
      after: { id: report.targetId, state: "active", reportId: report.id },
      reason,
    });
  }
}

/** Reports resolved by a moderator: dismissed (what they suspended shown again) or actioned by a takedown, with or without a ban. */
export function createTakedowns(deps: TakedownDeps) {
  const { db, content, bans, blockTakenDown, preserve, tellNotifier } = deps;

  /** The statement for a takedown of someone's content, then the repeat-offender rule. */
  async function decideTakedown(tx: Tx, staffId: number, targetType: ReportTarget, targetId: number, userId: number | null, d: Decided, reportId?: number) {
    if (userId === null) return;
    await recordDecision(tx, {
      userId,
      action: "takedown",
      ground: d.ground ?? "other",
      explanation: d.reason,
      decidedById: staffId,
      targetType,
      targetId,
      reportId,
    });
    await bans.suspendRepeatOffender(tx, userId);
  }

  /** Removes the content; open reports about it are answered by the same takedown. */
  async function removeContent(tx: Tx, staffId: number, targetType: ReportTarget, targetId: number) {
    await content[targetType].setState(tx, targetId, "removed");
    await blockTakenDown(tx, targetType, targetId);
    await tx.report.updateMany({
      where: { targetType, targetId, status: "open" },
      data: { status: "actioned", resolvedAt: new Date(), resolvedById: staffId },
    });
  }

  async function takeDown(tx: Tx, staffId: number, reportId: number, reason: string) {
    const report = await resolve(deps, tx, staffId, reportId, "actioned", "takedown", reason);
    await removeContent(tx, staffId, report.targetType, report.targetId);
    if (report.reason === "underage") await preserve(tx, report.targetType, report.targetId, report.targetUserId, report.id);
    await decideTakedown(tx, staffId, report.targetType, report.targetId, report.targetUserId, { reason, ground: report.reason }, report.id);
    return report;
  }

  return {
    removeContent,
    decideTakedown,

    /** Nothing wrong found: what the report suspended is shown again (audited), unless another open report holds it. */
    async dismiss(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction(async (tx) => {
        const r = await resolve(deps, tx, staffId, reportId, "dismissed", "dismiss", reason);
        await liftSuspension(deps, tx, staffId, r, reason);
        return r;
      });
      await tellNotifier(report, "dismissed");
      return report;
    },

    async takeDown(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction((tx) => takeDown(tx, staffId, reportId, reason));
      await tellNotifier(report, "actioned");
      return report;
    },

    /** Takes the reported content down and bans its owner, in one transaction. */
    async banUploader(staffId: number, reportId: number, reason: string) {
      const report = await db.$transaction(async (tx) => {
        const r = await takeDown(tx, staffId, reportId, reason);
        if (!r.targetUserId) throw HttpError.conflict("The reported content has no owner to ban");
        // the repeat-offender rule may already have suspended the account in the takedown
        const owner = await tx.user.findUnique({ where: { id: r.targetUserId }, select: { bannedAt: true } });
        if (!owner?.bannedAt) await bans.ban(tx, staffId, r.targetUserId, { reason, ground: r.reason });
        return r;
      });
      await tellNotifier(report, "actioned");
      return report;
    },
  };
}

export type Takedowns = ReturnType<typeof createTakedowns>;
