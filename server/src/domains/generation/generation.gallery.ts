import type { Prisma } from "../../db/generated/client.ts";
import { sqlTransaction, type Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { galleryCount, galleryPage, likesPerDay, likeTask, recountLikes, remixesPerDay, unlikeTask } from "./generation.queries.ts";
import type { GalleryQuery } from "./generation.schema.ts";
import { unexpired, type GenerationDeps } from "./generation.task.ts";
import type { createTaskViews } from "./generation.views.ts";
import { pageIsUp, publicName, publicNameFields } from "../creators/creators.pages.ts";

/** What the gallery shows: shared, active, succeeded, unexpired creations (a report or a takedown takes one out at once). */
const shown = (): Prisma.GenerationTaskWhereInput => ({ isPublic: true, state: "active", status: "succeeded", ...unexpired() });

const withOwnerName = { user: { select: publicNameFields } } as const;
/** The owner's display name and their creator page, which a viewer may follow from the item (docs/decisions/309). */
const withOwner = (viewerId: number | null) =>
  ({
    user: {
      select: {
        nickname: true,
        uuid: true,
        bannedAt: true,
        // the viewer's own follow of that page, if any (none without a login); its title names the owner
        creatorPage: {
          select: { homeLink: true, title: true, state: true, subscriptions: { where: { userId: viewerId ?? 0, active: true }, select: { id: true } } },
        },
      },
    },
  }) as const;
type Owner = { bannedAt: Date | null; creatorPage: { homeLink: string; state: string; subscriptions: unknown[] } | null };

/** The owner's page while it is up (a taken-down page or a banned owner offers nothing to follow), and the viewer's follow. */
function authorOf({ bannedAt, creatorPage: page }: Owner) {
  const up = page !== null && pageIsUp(page, { bannedAt });
  return { creator_link: up ? page.homeLink : null, following: up && page.subscriptions.length > 0 ? 1 : 0 };
}

/** The home gallery people respond to: its pages, an item's settings, likes and their counts (issue 32 items 1 and 2). */
export function createGallery({ db, notify }: GenerationDeps, { publicView, remixSettings }: ReturnType<typeof createTaskViews>) {
  /** The ids among `ids` that `viewerId` has liked (none without a login). */
  async function likedOf(viewerId: number | null, ids: number[]): Promise<Set<number>> {
    if (viewerId === null || !ids.length) return new Set();
    const rows = await db.galleryLike.findMany({ where: { userId: viewerId, taskId: { in: ids } }, select: { taskId: true } });
    return new Set(rows.map((r) => r.taskId));
  }

  /** The shown item, or 404: a private, removed, suspended, taken-down, expired and missing one look the same. */
  async function shownItem(id: number, viewerId: number | null = null) {
    const t = await db.generationTask.findFirst({ where: { id, ...shown() }, include: withOwner(viewerId) });
    if (!t) throw HttpError.notFound();
    return t;
  }

  /** After a like or unlike: the item's count and the caller's like as they now stand. */
  async function likeState(userId: number, id: number) {
    const t = await shownItem(id);
    return { id, likes: t.likeCount, liked: (await likedOf(userId, [id])).has(id) ? 1 : 0 };
  }

  return {
    /** A page of the gallery, newest first or popular this week, by mode and template; `liked` for the viewer. */
    async gallery(q: GalleryQuery, viewerId: number | null = null) {
      const filter = { mode: q.mode, templateId: q.template_id };
      const [counted, page] = await Promise.all([
        galleryCount.first(db, filter),
        galleryPage.rows(db, { ...filter, sort: q.sort, limit: q.limit, offset: (q.page - 1) * q.limit }),
      ]);
      const ids = page.map((r) => r.id);
      const [rows, liked] = await Promise.all([
        db.generationTask.findMany({ where: { id: { in: ids } }, include: withOwner(viewerId) }),
        likedOf(viewerId, ids),
      ]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      // in the page's order; an item taken down between the two reads is left out
      const list = ids.flatMap((id) => byId.get(id) ?? []);
      const views = await Promise.all(list.map(async (r) => ({ ...(await publicView(r, liked.has(r.id))), ...authorOf(r.user) })));
      return { list: views, total: counted?.total ?? 0, page: q.page, limit: q.limit };
    },

    /** One shown item with its prompt and settings, and the shown item it remixes (by display name only). */
    async galleryItem(id: number, viewerId: number | null = null) {
      const t = await shownItem(id, viewerId);
      const source = t.remixOfId
        ? await db.generationTask.findFirst({ where: { id: t.remixOfId, ...shown() }, select: { id: true, user: withOwnerName.user } })
        : null;
      return {
        ...(await publicView(t, (await likedOf(viewerId, [id])).has(id))),
        ...authorOf(t.user),
        settings: remixSettings(t),
        remix_of: source ? { id: source.id, nickname: publicName(source.user) } : null,
      };
    },

    /** The console dashboard's day series (docs/decisions/309): likes given, remixes submitted. */
    likesPerDay: (sinceUtc: string) => likesPerDay.rows(db, { sinceUtc }),
    remixesPerDay: (sinceUtc: string) => remixesPerDay.rows(db, { sinceUtc }),

    /** Likes a shown item once per account, however many times it is asked at once. */
    async like(userId: number, id: number) {
      // the owner is told in the like's transaction, once per liker (docs/decisions/312); on pg, as the like is a hot path
      await sqlTransaction(db, async (tx) => {
        const liked = await likeTask.first(tx, { taskId: id, userId });
        if (liked) await notify(tx, { userId: liked.ownerId, kind: "like", subjectId: id, actorId: userId });
      });
      return likeState(userId, id);
    },

    /** Takes back the caller's own like; another account's like is never reached (the statement names the caller). */
    async unlike(userId: number, id: number) {
      await unlikeTask.rows(db, { taskId: id, userId });
      return likeState(userId, id);
    },

    /**
     * Guest merge (auth): the guest's likes become the account's, in the sign-in's transaction; an item both liked
     * keeps one like, and its counts are taken again from the rows.
     */
    async moveLikes(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      const rows = await tx.galleryLike.findMany({ where: { userId: fromUserId }, select: { taskId: true, createdAt: true } });
      if (!rows.length) return;
      await tx.galleryLike.createMany({ data: rows.map((r) => ({ ...r, userId: toUserId })), skipDuplicates: true });
      await tx.galleryLike.deleteMany({ where: { userId: fromUserId } });
      await recountLikes.rows(tx, { taskIds: rows.map((r) => r.taskId) });
    },

    /** Account erasure: the account's likes go, and the counts of what it liked drop with them. */
    async eraseLikes(tx: Tx, userId: number): Promise<void> {
      const rows = await tx.galleryLike.findMany({ where: { userId }, select: { taskId: true } });
      if (!rows.length) return;
      await tx.galleryLike.deleteMany({ where: { userId } });
      await recountLikes.rows(tx, { taskIds: rows.map((r) => r.taskId) });
    },
  };
}
