import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { ACTION_TARGET_HOURS } from "../../contract/moderation.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { ContentOwners } from "./moderated-content.ts";
import type { BanFilter, ReportFilter } from "./moderation.schema.ts";

/** How long the console's preview of a reported file stays open. */
const PREVIEW_TTL_SECONDS = 600;

/**
 * A report with how long it has waited (until now, or until it was resolved) and whether that passed the 48-hour
 * target (ACTION_TARGET_HOURS), which the queue sorts and colours by.
 */
function withAge<R extends { createdAt: Date; resolvedAt: Date | null }>(r: R) {
  const ageSeconds = Math.floor(((r.resolvedAt ?? new Date()).getTime() - r.createdAt.getTime()) / 1000);
  return { ...r, ageSeconds, targetSeconds: ACTION_TARGET_HOURS * 3600, breached: ageSeconds > ACTION_TARGET_HOURS * 3600 };
}

/** The console's queue of reports and list of bans, read-only. */
export function createModerationQueue({ db, content, storage }: { db: Db; content: ContentOwners; storage: Pick<MediaStorage, "signedUrl"> }) {
  return {
    listReports: async (params: ListParams<ReportFilter>) => {
      const page = await pageOf(db.report, params, matching(params.filter, ["status", "reason", "source", "targetType", "targetUserId", "reporterUserId"]));
      return { ...page, rows: page.rows.map(withAge) };
    },

    async getReport(id: number) {
      const r = await db.report.findUnique({ where: { id } });
      return r ? withAge(r) : null;
    },

    /** The reported file as the moderator sees it (a signed URL of a few minutes); null when the content has none. */
    async preview(reportId: number) {
      const r = await db.report.findUnique({ where: { id: reportId }, select: { targetType: true, targetId: true } });
      if (!r) throw HttpError.notFound();
      const media = await content[r.targetType].media?.(db, r.targetId);
      return { id: reportId, media: media ? { kind: media.kind, url: await storage.signedUrl(media.key, PREVIEW_TTL_SECONDS) } : null };
    },

    listBans: (params: ListParams<BanFilter>) => {
      const f = params.filter;
      return pageOf(db.ban, params, {
        ...matching(f, ["userId", "staffId"]),
        ...(f.active === undefined ? {} : { liftedAt: f.active ? null : { not: null } }),
      });
    },

    getBan: (id: number) => db.ban.findUnique({ where: { id } }),
  };
}
