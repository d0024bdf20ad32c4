import type { ApiRouter } from "../http/api.ts";
import type { Subject } from "../authz/abilities.ts";
import { defineAbilityFor } from "../authz/abilities.ts";
import type { StaffPrincipal } from "../authz/principal.ts";
import { HttpError } from "../http/errors.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { ModerationService } from "../domains/moderation/moderation.service.ts";
import {
  appealFilter,
  appealRecord,
  appealRow,
  appealSortable,
  banFilter,
  banRecord,
  banSortable,
  decisionFilter,
  decisionRecord,
  decisionRow,
  decisionSortable,
  periodQuery,
  reportDismissAnswer,
  reportFilter,
  reportPreviewAnswer,
  reportListRow,
  reportRecord,
  reportSortable,
  transparencyAnswer,
} from "../domains/moderation/moderation.schema.ts";
import { evidenceExportAnswer, evidenceFileAnswer, evidenceRecord } from "../domains/moderation/moderation.evidence.schema.ts";
import type { AppealsService } from "../domains/moderation/appeals.service.ts";
import type { TransparencyService } from "../domains/moderation/transparency.service.ts";
import type { EvidenceService } from "../domains/moderation/evidence.ts";
import { idsFilter } from "../http/list-filters.ts";
import { z } from "zod";

const TARGET_SUBJECT: Record<string, Subject> = {
  task: "GenerationTask",
  upload: "Upload",
  character: "Character",
  creator_page: "CreatorPage",
  conversation: "Conversation",
  message: "Message",
};

/** The report queue (with each report's age against the 48-hour target), bans, statements of reasons, appeals and the transparency figures. */
export function reportsResource(
  api: ApiRouter,
  moderation: ModerationService,
  appeals: AppealsService,
  transparency: TransparencyService,
  evidence: EvidenceService,
) {
  /** The report's content kind decides which takedown permission is needed. */
  async function mayTakeDown(staff: StaffPrincipal, reportId: number) {
    const report = await moderation.getReport(reportId);
    if (!report) throw HttpError.notFound();
    if (!defineAbilityFor(staff).can("takedown", TARGET_SUBJECT[report.targetType])) throw HttpError.forbidden();
  }

  const r = new AdminResource(api, "reports", "Report");
  r.list({ filter: reportFilter, sortable: reportSortable, defaultSort: ["createdAt", "asc"], row: reportListRow }, (p) => moderation.listReports(p));
  r.get(reportRecord, (id) => moderation.getReport(id));
  r.view(
    "preview",
    { summary: "The reported file, as a short-lived signed URL (null when the content has no file)", can: ["read", "Report"], response: reportPreviewAnswer },
    (id) => moderation.preview(id),
  );
  r.action(
    "dismiss",
    { summary: "Dismiss: nothing wrong found", can: ["update", "Report"], body: reasonBody, response: reportDismissAnswer },
    (id, body, staff) => moderation.dismiss(staff.staffId, id, body.reason),
  );
  r.action(
    "takedown",
    { summary: "Take the reported content down", can: ["update", "Report"], body: reasonBody, response: reportDismissAnswer },
    async (id, body, staff) => {
      await mayTakeDown(staff, id);
      return moderation.takeDown(staff.staffId, id, body.reason);
    },
  );
  r.action(
    "ban-uploader",
    { summary: "Take the content down and ban its owner", can: ["ban", "User"], body: reasonBody, response: reportDismissAnswer },
    async (id, body, staff) => {
      await mayTakeDown(staff, id);
      return moderation.banUploader(staff.staffId, id, body.reason);
    },
  );

  const bans = new AdminResource(api, "bans", "Ban");
  bans.list({ filter: banFilter, sortable: banSortable, row: banRecord }, (p) => moderation.listBans(p));
  bans.get(banRecord, (id) => moderation.getBan(id));
  bans.action(
    "lift",
    { summary: "Lift the ban (every ban in force on that account)", can: ["update", "Ban"], body: reasonBody, response: banRecord },
    async (id, body, staff) => {
      const ban = await moderation.getBan(id);
      if (!ban) throw HttpError.notFound();
      await moderation.unban(staff.staffId, ban.userId, body.reason);
      return moderation.getBan(id);
    },
  );

  const decisions = new AdminResource(api, "decisions", "Decision");
  decisions.list({ filter: decisionFilter, sortable: decisionSortable, row: decisionRow }, (p) => appeals.listDecisions(p));
  decisions.get(decisionRecord, (id) => appeals.getDecision(id));

  const appealQueue = new AdminResource(api, "appeals", "Appeal");
  appealQueue.list({ filter: appealFilter, sortable: appealSortable, defaultSort: ["createdAt", "asc"], row: appealRow }, (p) => appeals.listAppeals(p));
  appealQueue.get(appealRecord, (id) => appeals.getAppeal(id));
  // two named actions rather than one with an outcome field: each is its own button, permission and audit action
  appealQueue.action(
    "uphold",
    { summary: "Uphold the appealed decision (not by the moderator who made it)", can: ["update", "Appeal"], body: reasonBody, response: appealRow },
    (id, body, staff) => appeals.decide(staff.staffId, id, "upheld", body.reason),
  );
  appealQueue.action(
    "reverse",
    {
      summary: "Reverse the appealed decision (not by the moderator who made it): the content or the account is restored",
      can: ["update", "Appeal"],
      body: reasonBody,
      response: appealRow,
    },
    (id, body, staff) => appeals.decide(staff.staffId, id, "reversed", body.reason),
  );

  // the restricted evidence store: admins only (no other role may read Evidence)
  const kept = new AdminResource(api, "evidence", "Evidence");
  kept.list({ filter: z.strictObject({ id: idsFilter }), sortable: ["id", "createdAt", "keepUntil"], row: evidenceRecord }, (p) => evidence.list(p));
  kept.get(evidenceRecord, (id) => evidence.get(id));
  kept.view("file", { summary: "The preserved file, as a signed URL of a few minutes", can: ["read", "Evidence"], response: evidenceFileAnswer }, (id) =>
    evidence.file(id),
  );
  kept.action(
    "export",
    {
      summary: "The CyberTipline report package for this evidence (audited; submitting it stays a person's act)",
      can: ["read", "Evidence"],
      body: reasonBody,
      response: evidenceExportAnswer,
    },
    (id, body, staff) => evidence.exportPackage(staff.staffId, id, body.reason),
  );

  api.get(
    "/admin/api/transparency",
    {
      summary: "Counts by reason, action, ground and outcome and the time to action over a period (format=csv for the export)",
      tags: ["console: transparency"],
      auth: "staff",
      can: ["read", "Report"],
      query: periodQuery,
      response: { kind: "plain", schema: transparencyAnswer, description: "The figures; with format=csv, a CSV file of them instead" },
    },
    async ({ query, res }) => {
      const period = { from: query.from ? new Date(query.from) : undefined, to: query.to ? new Date(query.to) : undefined };
      if (query.format !== "csv") return transparency.report(period);
      res.setHeader("Content-Type", "text/csv; charset=utf-8");
      res.setHeader("Content-Disposition", 'attachment; filename="transparency.csv"');
      res.status(200).send(await transparency.csv(period));
      return undefined;
    },
  );
}
