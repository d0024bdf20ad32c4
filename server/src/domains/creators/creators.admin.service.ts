import type { CreatorLibraryItem, CreatorMembership } from "../../db/generated/client.ts";
import type { Db } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { ContentState } from "../../contract/moderation.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { CreatorMembershipFilter, LibraryItemFilter } from "./creators.schema.ts";

/** What the console shows of a published creation; generation owns it. */
export interface CreationPreview {
  /** moderation state: a suspended or removed creation is off the page */
  state: ContentState;
  status: string;
  /** the picture to show: an image's file or a video's poster; null once the files are gone */
  thumbKey: string | null;
}

interface Deps {
  db: Db;
  /** generation owns creations: their moderation state and a thumbnail, by task id */
  previews(taskIds: number[]): Promise<Map<number, CreationPreview>>;
  storage: Pick<MediaStorage, "signedUrl">;
}

const withPage = { creatorPage: { select: { homeLink: true } } } as const;

/**
 * Creator memberships and library items for the console, read-only (issue 16, decision 215): staff see what fans pay
 * and what a page shows, and change nothing here (a creation is taken down through its report or the task's own
 * moderation).
 */
export function createCreatorsAdminService({ db, previews, storage }: Deps) {
  function membershipView({ creatorPage, ...m }: CreatorMembership & { creatorPage: { homeLink: string } }) {
    // an active membership renews at the end of its paid period; a cancelled one ends then, an ended one has ended
    return {
      ...m,
      homeLink: creatorPage.homeLink,
      renewsAt: m.status === "active" ? m.paidThrough : null,
      endsAt: m.status === "active" ? null : (m.endedAt ?? m.paidThrough),
    };
  }

  async function itemViews(rows: (CreatorLibraryItem & { creatorPage: { homeLink: string } })[]) {
    const found = await previews(rows.map((r) => r.taskId));
    return Promise.all(
      rows.map(async ({ creatorPage, ...item }) => {
        const p = found.get(item.taskId);
        return {
          ...item,
          homeLink: creatorPage.homeLink,
          creationState: p?.state ?? null,
          creationStatus: p?.status ?? null,
          thumbnailUrl: p?.thumbKey ? await storage.signedUrl(p.thumbKey, 600) : null,
        };
      }),
    );
  }

  return {
    async listMemberships(params: ListParams<CreatorMembershipFilter>) {
      const page = await pageOf(db.creatorMembership, params, matching(params.filter, ["creatorPageId", "fanUserId", "status"]), { include: withPage });
      return { ...page, rows: (page.rows as Parameters<typeof membershipView>[0][]).map(membershipView) };
    },
    async getMembership(id: number) {
      const m = await db.creatorMembership.findUnique({ where: { id }, include: withPage });
      return m && membershipView(m);
    },
    async listLibraryItems(params: ListParams<LibraryItemFilter>) {
      const page = await pageOf(db.creatorLibraryItem, params, matching(params.filter, ["creatorPageId", "visibility"]), { include: withPage });
      return { ...page, rows: await itemViews(page.rows as Parameters<typeof itemViews>[0]) };
    },
    async getLibraryItem(id: number) {
      const item = await db.creatorLibraryItem.findUnique({ where: { id }, include: withPage });
      return item && (await itemViews([item]))[0];
    },
  };
}

export type CreatorsAdminService = ReturnType<typeof createCreatorsAdminService>;
