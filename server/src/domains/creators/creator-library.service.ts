import type { CreatorLibraryItem, CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, LIBRARY_PAGE_SIZE, type LibraryVisibility } from "../../contract/creators.ts";
import { HttpError } from "../../http/errors.ts";
import type { LocalMediaSigner } from "../../storage/local.storage.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { LIMIT_MESSAGES, quotaMessage } from "../../contract/limits.ts";
import { deleteLibraryItem, lockCreatorQuota, upsertLibraryItem } from "./creators.queries.ts";

/** The route that serves members-only media (creators.routes.ts), each request checked. */
export const LIBRARY_MEDIA_PATH = "/api/Subscribe/libraryMedia";

/** A creation's files, as the generation domain answers them for a library. */
export interface CreationMedia {
  kind: "image" | "video";
  key: string;
  posterKey: string | null;
}

export type MediaPart = "main" | "poster";

interface Deps {
  db: Db;
  storage: Pick<MediaStorage, "signedUrl">;
  /**
   * The HMAC signer local media URLs use (storage/local.storage.ts), with the same server secret: members-only URLs
   * sign a subject that names item, part and viewer, which no media key can equal (keys have no `:`), so neither kind
   * of signature opens the other's route.
   */
  signer: LocalMediaSigner;
  ttlSeconds: number;
  /** generation owns creations: the files of the creator's finished, active, unexpired ones among the ids */
  creations(userId: number, taskIds: number[]): Promise<Map<number, CreationMedia>>;
  /** the creators domain's membership check, at the moment of each request */
  isMember(pageId: number, userId: number): Promise<boolean>;
  /** auth owns logins: whether the login a media pass was issued to still counts (not logged out, not banned) */
  sessionLive(sessionId: number, userId: number): Promise<boolean>;
  /**
   * generation keeps a published creation from its results' expiry (decision 216), in the publishing transaction:
   * false when the task is not the creator's finished, active, unexpired creation
   */
  keepCreation(tx: Tx, userId: number, taskId: number): Promise<boolean>;
  /** and lets it expire normally again once it is taken off, in the same transaction as the removal */
  releaseCreation(tx: Tx, taskId: number): Promise<void>;
  /** Items one page may hold, and publish in an hour (docs/decisions/251). */
  limits: { items: number; perHour: number };
}

const subject = (itemId: number, part: MediaPart, viewerId: number) => `creator-library:${itemId}:${part}:viewer:${viewerId}`;
/**
 * What a viewer's media pass signs: neither a media key (no `:`) nor an item's subject (another prefix). It names the
 * login it was issued to, so it dies with that login (logout, ban), not only when it expires (docs/decisions/248).
 */
const passSubject = (viewerId: number, sessionId: number) => `creator-library-pass:viewer:${viewerId}:session:${sessionId}`;
const PASS = /^(\d{1,12})\.(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{1,100})$/;

export type UrlDeps = Pick<Deps, "storage" | "signer" | "ttlSeconds">;

/** A members-only file's URL, signed for one viewer, item and part. */
function memberUrl({ signer, ttlSeconds }: UrlDeps, itemId: number, part: MediaPart, viewerId: number): string {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
  const q = new URLSearchParams({
    item: String(itemId),
    part,
    viewer: String(viewerId),
    expires: String(expires),
    sig: signer.sign(subject(itemId, part, viewerId), expires),
  });
  return `${LIBRARY_MEDIA_PATH}?${q}`;
}

/** An item as one viewer sees it: public media signed by storage, members-only media signed for the viewer or locked. */
export async function itemView(
  d: UrlDeps,
  item: Pick<CreatorLibraryItem, "id" | "taskId" | "visibility" | "createdAt">,
  media: CreationMedia,
  viewerId: number | null,
  unlocked: boolean,
) {
  const base = {
    id: item.id,
    task_id: item.taskId,
    visibility: item.visibility as LibraryVisibility,
    kind: media.kind,
    created_at: item.createdAt.toISOString(),
  };
  const url = async (part: MediaPart): Promise<string | null> => {
    const key = part === "main" ? media.key : media.posterKey;
    if (!key) return null;
    if (item.visibility === "public") return d.storage.signedUrl(key);
    return unlocked && viewerId !== null ? memberUrl(d, item.id, part, viewerId) : null;
  };
  const locked = item.visibility === "members" && !unlocked;
  const [main, poster] = locked ? [null, null] : await Promise.all([url("main"), url("poster")]);
  return { ...base, locked, image_url: media.kind === "image" ? main : null, video_url: media.kind === "video" ? main : null, poster_url: poster };
}

/**
 * A creator page's content library (issue 16, decision 204): the creator's own finished creations, public or
 * members-only. Owns creator_library_items. Public media gets ordinary signed storage URLs; members-only media a URL
 * signed for one viewer and item that the serving route checks on every request together with the viewer's
 * membership, so a forwarded URL, a lapsed member or a guessed path gets nothing.
 */
export function createCreatorLibrary({ db, storage, signer, ttlSeconds, creations, isMember, sessionLive, keepCreation, releaseCreation, limits }: Deps) {
  /**
   * A new item is counted with the committed ones under the page's quota lock, and a refusal rolls it back. Changing
   * an item's visibility adds nothing; the hourly rate counts the items added in the last hour.
   */
  async function withinLimits(tx: Tx, pageId: number): Promise<void> {
    await lockCreatorQuota.rows(tx, { kind: "library-items", id: pageId });
    if ((await tx.creatorLibraryItem.count({ where: { creatorPageId: pageId } })) > limits.items)
      throw HttpError.conflict(quotaMessage("libraryItems", limits.items));
    const lastHour = await tx.creatorLibraryItem.count({ where: { creatorPageId: pageId, createdAt: { gte: new Date(Date.now() - 3600_000) } } });
    if (lastHour > limits.perHour) throw new HttpError(429, LIMIT_MESSAGES.hourly);
  }

  const urls = { storage, signer, ttlSeconds };
  return {
    /**
     * The page's library as one viewer sees it, newest first: public items with their media; members-only items with
     * URLs signed for this viewer when they are the creator or a member (`unlocked`, which the caller may still be
     * finding out: the rows load meanwhile), otherwise locked entries without any URL. Items whose creation is gone
     * (expired, removed, suspended by a report) are left out.
     */
    async forViewer(page: CreatorPage, viewerId: number | null, unlocked: Promise<boolean>, q = { page: 1, limit: LIBRARY_PAGE_SIZE }) {
      const where = { creatorPageId: page.id };
      const rows = await db.creatorLibraryItem.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit });
      const [counts, media, open] = await Promise.all([
        db.creatorLibraryItem.groupBy({ by: ["visibility"], where, _count: true }),
        creations(
          page.userId,
          rows.map((r) => r.taskId),
        ),
        unlocked,
      ]);
      const membersOnly = counts.find((c) => c.visibility === "members")?._count ?? 0;
      const list = await Promise.all(rows.filter((r) => media.has(r.taskId)).map((r) => itemView(urls, r, media.get(r.taskId)!, viewerId, open)));
      return { list, total: counts.reduce((sum, c) => sum + c._count, 0), locked: open ? 0 : membersOnly };
    },

    /**
     * The creator publishes one of their own finished creations, or changes an item's visibility. The row and
     * generation's hold on the creation's expiry commit together, so a published creation never expires under it.
     */
    async publish(page: CreatorPage, taskId: number, visibility: LibraryVisibility) {
      const id = await db.$transaction(async (tx) => {
        // one statement, so a double tap cannot race into a duplicate-key error
        const [row] = await upsertLibraryItem.rows(tx, { pageId: page.id, taskId, visibility });
        if (row.inserted) await withinLimits(tx, page.id);
        if (!(await keepCreation(tx, page.userId, taskId))) throw HttpError.badRequest(M.publishNotYours);
        return row.id;
      });
      return db.creatorLibraryItem.findUniqueOrThrow({ where: { id } });
    },

    /** Takes an item off the page (the creation itself stays the creator's, and expires normally from now). */
    async unpublish(page: CreatorPage, itemId: number) {
      await db.$transaction(async (tx) => {
        const removed = await deleteLibraryItem.first(tx, { itemId, pageId: page.id });
        if (!removed) throw HttpError.notFound();
        await releaseCreation(tx, removed.task_id);
      });
    },

    /** The page's items among these creations (the creator's publish panel shows how each is published). */
    async itemsOf(page: CreatorPage, taskIds: number[]) {
      const rows = await db.creatorLibraryItem.findMany({
        where: { creatorPageId: page.id, taskId: { in: taskIds } },
        select: { id: true, taskId: true, visibility: true },
      });
      return rows.map((r) => ({ id: r.id, task_id: r.taskId, visibility: r.visibility as LibraryVisibility }));
    },

    /** Whether a creation is on some page's library (moderation: such a creation can be reported by anyone). */
    /** Read in `c`: moderation asks inside its report's transaction. */
    isPublished: async (taskId: number, c: Tx | Db = db) => (await c.creatorLibraryItem.count({ where: { taskId } })) > 0,

    /**
     * A media pass for the signed-in viewer (decision 217): a cookie value naming them, signed and expiring like their
     * URLs, that a <video> element sends where it cannot send the token header. It proves the request comes from the
     * viewer's own browser, as the token does; the URL's signature and the membership are checked as always.
     */
    pass(viewerId: number, sessionId: number): { value: string; maxAgeSeconds: number } {
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      return { value: `${viewerId}.${sessionId}.${expires}.${signer.sign(passSubject(viewerId, sessionId), expires)}`, maxAgeSeconds: ttlSeconds };
    },

    /** The viewer a pass names when it is the server's, unexpired, and its login still counts; null for anything else. */
    async passViewer(value: string | undefined): Promise<number | null> {
      const m = PASS.exec(value ?? "");
      if (!m) return null;
      const [viewer, session] = [Number(m[1]), Number(m[2])];
      if (!signer.verify(passSubject(viewer, session), Number(m[3]), m[4])) return null;
      return (await sessionLive(session, viewer)) ? viewer : null;
    },

    /**
     * One members-only file, for the requesting viewer only. Checked on every request: the caller is signed in as the
     * viewer the URL was signed for (their token, or their media pass), the signature is the server's and unexpired,
     * the page is up, and the viewer is its creator or a member right now. Anything else is a plain 404 that tells
     * nothing. Answers the file's key: the route streams it, a range at a time when the player asks for one.
     */
    async media(requesterId: number | null, q: { item: number; part: MediaPart; viewer: number; expires: number; sig: string }) {
      if (requesterId === null || requesterId !== q.viewer) throw HttpError.notFound();
      if (!signer.verify(subject(q.item, q.part, q.viewer), q.expires, q.sig)) throw HttpError.notFound();
      const item = await db.creatorLibraryItem.findUnique({
        where: { id: q.item },
        include: { creatorPage: { select: { id: true, userId: true, state: true, user: { select: { bannedAt: true } } } } },
      });
      // a banned creator's page is down like a taken-down one
      if (item?.creatorPage.state !== "active" || item.creatorPage.user.bannedAt) throw HttpError.notFound();
      const allowed = item.creatorPage.userId === q.viewer || item.visibility === "public" || (await isMember(item.creatorPage.id, q.viewer));
      if (!allowed) throw HttpError.notFound();
      const media = (await creations(item.creatorPage.userId, [item.taskId])).get(item.taskId);
      const key = q.part === "main" ? media?.key : media?.posterKey;
      if (!key) throw HttpError.notFound();
      return { key };
    },
  };
}

export type CreatorLibrary = ReturnType<typeof createCreatorLibrary>;
