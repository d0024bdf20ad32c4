import type { Db } from "../../db/client.ts";
import type { ListParams } from "../../db/paging.ts";
import type { Side } from "../../contract/sides.ts";
import { reportedThreadCount, reportedThreads } from "./messages.queries.ts";

type Row = Awaited<ReturnType<typeof reportedThreads.rows>>[number];

const threadRecord = (r: Row) => ({
  id: r.id,
  creatorPageId: r.creator_page_id,
  homeLink: r.home_link,
  creatorUserId: r.creator_user_id,
  fanUserId: r.fan_user_id,
  reports: r.reports,
  openReports: r.open_reports,
  lastReportedAt: r.last_reported_at,
});

/**
 * Reported threads for moderators (docs/decisions/310): a report names one message, the moderator reads it in its
 * thread, every message with its state (held and taken-down ones too) and whether it was reported. Deciding is the
 * report queue's (take down, dismiss), as for any reported content.
 */
export function createMessagesAdmin(db: Db) {
  async function reportedThread(id: number) {
    const [row] = await reportedThreads.rows(db, { limit: 1, offset: 0, threadIds: [id] });
    if (!row) return null;
    const messages = await db.message.findMany({ where: { threadId: id }, orderBy: { id: "asc" }, take: 500 });
    const reported = await db.report.groupBy({ by: ["targetId"], where: { targetType: "message", targetId: { in: messages.map((m) => m.id) } }, _count: true });
    const counts = new Map(reported.map((r) => [r.targetId, r._count]));
    return {
      ...threadRecord(row),
      messages: messages.map((m) => ({
        id: m.id,
        sender: m.sender as Side,
        body: m.body,
        libraryItemId: m.libraryItemId,
        price: m.price,
        unlocked: m.unlockedAt !== null,
        state: m.state,
        reported: counts.has(m.id),
        reports: counts.get(m.id) ?? 0,
        createdAt: m.createdAt,
      })),
    };
  }

  return {
    async listReported(params: ListParams<{ id?: number[] }>) {
      const [from, to] = params.range;
      const [rows, [count]] = await Promise.all([
        reportedThreads.rows(db, { limit: to - from + 1, offset: from, threadIds: params.filter.id ?? null }),
        reportedThreadCount.rows(db, {}),
      ]);
      return { rows: rows.map(threadRecord), total: params.filter.id ? rows.length : count.total, from };
    },
    reportedThread,
  };
}
