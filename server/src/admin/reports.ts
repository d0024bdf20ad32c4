import type { ApiRouter } from "../http/api.ts";
import type { Subject } from "../authz/abilities.ts";
import { defineAbilityFor } from "../authz/abilities.ts";
import type { StaffPrincipal } from "../authz/principal.ts";
import { HttpError } from "../http/errors.ts";
import { AdminResource, reasonBody } from "./resource.ts";
import type { ModerationService } from "../domains/moderation/moderation.service.ts";
import { banFilter, banSortable, reportFilter, reportSortable } from "../domains/moderation/moderation.schema.ts";

const TARGET_SUBJECT: Record<string, Subject> = { task: "GenerationTask", upload: "Upload", character: "Character", creator_page: "CreatorPage", conversation: "Conversation" };

/** The report queue (with each report's age) and the bans list. */
export function reportsResource(api: ApiRouter, moderation: ModerationService) {
  /** The report's content kind decides which takedown permission is needed. */
  async function mayTakeDown(staff: StaffPrincipal, reportId: number) {
    const report = await moderation.getReport(reportId);
    if (!report) throw HttpError.notFound();
    if (!defineAbilityFor(staff).can("takedown", TARGET_SUBJECT[report.targetType])) throw HttpError.forbidden();
  }

  const r = new AdminResource(api, "reports", "Report");
  r.list({ filter: reportFilter, sortable: reportSortable, defaultSort: ["createdAt", "asc"] }, (p) => moderation.listReports(p));
  r.get((id) => moderation.getReport(id));
  r.action("dismiss", { summary: "Dismiss: nothing wrong found", can: ["update", "Report"], body: reasonBody }, (id, body, staff) => moderation.dismiss(staff.staffId, id, body.reason));
  r.action("takedown", { summary: "Take the reported content down", can: ["update", "Report"], body: reasonBody }, async (id, body, staff) => {
    await mayTakeDown(staff, id);
    return moderation.takeDown(staff.staffId, id, body.reason);
  });
  r.action("ban-uploader", { summary: "Take the content down and ban its owner", can: ["ban", "User"], body: reasonBody }, async (id, body, staff) => {
    await mayTakeDown(staff, id);
    return moderation.banUploader(staff.staffId, id, body.reason);
  });

  const bans = new AdminResource(api, "bans", "Ban");
  bans.list({ filter: banFilter, sortable: banSortable }, (p) => moderation.listBans(p));
  bans.get((id) => moderation.getBan(id));
  bans.action("lift", { summary: "Lift the ban (every ban in force on that account)", can: ["update", "Ban"], body: reasonBody }, async (id, body, staff) => {
    const ban = await moderation.getBan(id);
    if (!ban) throw HttpError.notFound();
    await moderation.unban(staff.staffId, ban.userId, body.reason);
    return moderation.getBan(id);
  });
}
