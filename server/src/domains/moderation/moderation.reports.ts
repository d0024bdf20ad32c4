import type { Db, Tx } from "../../db/client.ts";
import type { ReportTarget } from "../../db/generated/enums.ts";
import { LIMIT_MESSAGES } from "../../contract/limits.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { resolveContentLink } from "./content-link.ts";
import { creatorPageByLink, RESOURCE, type ContentOwners, type Reported, type ReportedMedia } from "./moderated-content.ts";
import { recordDecision } from "./moderation.decisions.ts";
import { lockReportTarget } from "./moderation.queries.ts";
import type { TellNotifier } from "./moderation.notifier.ts";
import type { NoticeBody, ReportBody } from "./moderation.schema.ts";

/** What the public notice form adds to a report. */
export interface NoticeFields {
  reportedUrl: string;
  contactName: string | null;
  contactEmail: string;
  swornAt: Date | null;
}

/** Copies reported content into the evidence store, once per content (evidence.preserve). */
export type PreserveEvidence = (
  tx: Tx,
  t: { targetType: ReportTarget; targetId: number; userId: number | null; reportId: number | null },
  media: ReportedMedia | null,
) => Promise<unknown>;

/** Content reported, or confirmed, as showing a minor is copied to the evidence store (18 U.S.C. 2258A, docs/decisions/152). */
export function preserverOf(content: ContentOwners, preserveEvidence: PreserveEvidence) {
  return async function preserve(tx: Tx, targetType: ReportTarget, targetId: number, userId: number | null, reportId: number | null) {
    await preserveEvidence(tx, { targetType, targetId, userId, reportId }, (await content[targetType].media?.(tx, targetId)) ?? null);
  };
}

export type Preserve = ReturnType<typeof preserverOf>;

interface ReportDeps {
  db: Db;
  audit: AuditService;
  content: ContentOwners;
  preserve: Preserve;
  tellNotifier: TellNotifier;
}

/** Reports as filed by people, the public notice form and the system. */
export function createReports({ db, audit, content, preserve, tellNotifier }: ReportDeps) {
  /** Underage: hidden from everyone before any moderator looks at it (audited, as the system); removed content stays removed. */
  async function holdUnderage(tx: Tx, input: ReportBody, target: Reported, reportId: number) {
    if (!(await content[input.target_type].setState(tx, input.target_id, "suspended", "active"))) return;
    if (target.userId !== null) {
      await recordDecision(tx, {
        userId: target.userId,
        action: "hold",
        ground: "underage",
        explanation: "",
        decidedById: null,
        targetType: input.target_type,
        targetId: input.target_id,
        reportId,
      });
    }
    await audit.record(tx, {
      staffId: null,
      action: "suspend",
      resource: RESOURCE[input.target_type],
      resourceId: input.target_id,
      before: { id: input.target_id, state: "active" },
      after: { id: input.target_id, state: "suspended", reportId },
      reason: `underage report #${reportId}`,
    });
  }

  /**
   * One open report per account per content (docs/decisions/251): a second one while the first waits adds nothing for
   * the moderators. Under the content's report lock, so concurrent twins cannot both find none.
   */
  async function refuseSecondOpenReport(tx: Tx, reporterUserId: number, input: ReportBody) {
    await lockReportTarget.rows(tx, { targetType: input.target_type, targetId: input.target_id });
    const open = await tx.report.count({ where: { reporterUserId, targetType: input.target_type, targetId: input.target_id, status: "open" } });
    if (open > 0) throw HttpError.conflict(LIMIT_MESSAGES.reportOpen);
  }

  /**
   * POST /api/report. Public content (a shared creation, a shared character, a creator page) may be reported by
   * anyone, signed in or not; private content (a conversation included) only by its owner (or, a message, by the other side of its thread), or by the system (chat's
   * policy strikes). Anything else answers exactly as an id that does not exist, so a report never tells whether
   * someone's private work is there. An underage report suspends the content at once (audited, as the system) when
   * it is public, comes from its owner or from the system (docs/decisions/071).
   */
  async function fileReport(reporterUserId: number | null, input: ReportBody, o: { system?: boolean; notice?: NoticeFields } = {}) {
    return db.$transaction(async (tx) => {
      const target = await content[input.target_type].find(tx, input.target_id);
      const trusted =
        o.system === true || (reporterUserId !== null && (target?.userId === reporterUserId || target?.parties?.includes(reporterUserId) === true));
      if (!target || !(target.isPublic || trusted)) throw HttpError.notFound();
      if (reporterUserId !== null) await refuseSecondOpenReport(tx, reporterUserId, input);
      const suspends = input.reason === "underage" && target.state !== "removed";
      const report = await tx.report.create({
        data: {
          reporterUserId,
          targetType: input.target_type,
          targetId: input.target_id,
          targetUserId: target.userId,
          reason: input.reason,
          details: input.details,
          suspendedContent: suspends,
          ...(o.notice ? { source: "notice" as const, ...o.notice } : {}),
        },
      });
      if (input.reason === "underage") await preserve(tx, input.target_type, input.target_id, target.userId, report.id);
      if (suspends) await holdUnderage(tx, input, target, report.id);
      return { id: report.id };
    });
  }

  /**
   * POST /api/notices/report, the public notice-and-action form (docs/decisions/150). The link is resolved to content
   * and filed under fileReport's rules for someone without an account: only public content is found, so a link to
   * private or missing content answers exactly alike (404) and nothing is written.
   */
  async function fileNotice(input: NoticeBody) {
    const target = await resolveContentLink(db, input.url, content, creatorPageByLink);
    if (!target) throw HttpError.notFound();
    const filed = await fileReport(
      null,
      { target_type: target.type, target_id: target.id, reason: input.reason, details: input.details },
      { notice: { reportedUrl: input.url, contactName: input.name || null, contactEmail: input.email, swornAt: input.sworn ? new Date() : null } },
    );
    await tellNotifier({ id: filed.id, source: "notice", contactEmail: input.email }, "received");
    return filed;
  }

  return { fileReport, fileNotice };
}
