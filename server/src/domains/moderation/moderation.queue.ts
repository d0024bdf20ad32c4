import type { Db } from "../../db/client.ts";
import type { Ban } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import { ACTION_TARGET_HOURS, type ReportTarget } from "../../contract/moderation.ts";
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

/** The newest accounts flagged as possibly this banned person again, by a weak signal only (docs/decisions/249). */
const withFlags = { evasionFlags: { select: { userId: true }, orderBy: { id: "desc" }, take: 20 } } as const;
type BanWithFlags = Ban & { evasionFlags: { userId: number }[] };
const flagged = ({ evasionFlags, ...ban }: BanWithFlags) => ({ ...ban, flaggedUserIds: evasionFlags.map((e) => e.userId) });

/** The console's queue of reports and list of bans, read-only. */
export function createModerationQueue({ db, content, storage }: { db: Db; content: ContentOwners; storage: Pick<MediaStorage, "signedUrl"> }) {
  const signed = (key: string) => storage.signedUrl(key, PREVIEW_TTL_SECONDS);
  /** The picture the queue shows beside a report: a video's poster, an image itself; nothing for sound or text. */
  async function thumbUrl(r: { targetType: ReportTarget; targetId: number }): Promise<string | null> {
    const media = await content[r.targetType].media?.(db, r.targetId);
    const key = media?.posterKey ?? (media?.kind === "image" ? media.key : null);
    return key ? signed(key) : null;
  }

  return {
    /** A page of the queue, each report with a thumbnail of what was reported (one look-up a row: a page is short). */
    listReports: async (params: ListParams<ReportFilter>) => {
      const page = await pageOf(db.report, params, matching(params.filter, ["status", "reason", "source", "targetType", "targetUserId", "reporterUserId"]));
      const rows = await Promise.all(page.rows.map(async (r) => ({ ...withAge(r), thumbUrl: await thumbUrl(r) })));
      return { ...page, rows };
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
      if (!media) return { id: reportId, media: null };
      const [url, posterUrl] = await Promise.all([signed(media.key), media.posterKey ? signed(media.posterKey) : null]);
      return { id: reportId, media: { kind: media.kind, url, posterUrl } };
    },

    listBans: async (params: ListParams<BanFilter>) => {
      const f = params.filter;
      const where = { ...matching(f, ["userId", "staffId"]), ...(f.active === undefined ? {} : { liftedAt: f.active ? null : { not: null } }) };
      const page = await pageOf(db.ban, params, where, { include: withFlags });
      return { ...page, rows: (page.rows as BanWithFlags[]).map(flagged) };
    },

    getBan: async (id: number) => {
      const ban = await db.ban.findUnique({ where: { id }, include: withFlags });
      return ban && flagged(ban);
    },
  };
}
