import type { Db, Tx } from "../../db/client.ts";
import type { ContentState } from "../../contract/moderation.ts";
import type { UploadKind } from "../../db/generated/enums.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { SCREENING_MESSAGES, type ScreeningRefusal, type ScreeningStatus } from "../../contract/screening.ts";

export interface UploadView {
  id: number;
  type: UploadKind;
  file_url: string;
  thumb_url: string | null;
  width: number | null;
  height: number | null;
  duration: number | null;
  size: number;
  created_at: string;
  /** Screening's decision (issue 19): `held` waits for a moderator and cannot be used; null for audio (not screened). */
  review: ScreeningStatus | null;
  /** Said to the person when the upload is held or rejected. */
  review_message: string | null;
}

/** What the person is told about an upload screening held or rejected. */
function reviewMessage(kind: UploadKind, status: ScreeningStatus | null): string | null {
  if (status === "held") return kind === "video" ? SCREENING_MESSAGES.heldVideo : SCREENING_MESSAGES.held;
  if (status === "rejected") return SCREENING_MESSAGES.rejected;
  return null;
}

/** A held or rejected upload named in a submit: refused before anything is charged (403, `data.reason`). */
function refuseUnscreened(kind: UploadKind, status: ScreeningStatus) {
  const reason: ScreeningRefusal = status === "held" ? "upload_held" : "upload_rejected";
  return new HttpError(403, reviewMessage(kind, status)!, { reason });
}

/** Uploads with their screening status, as every read of an upload takes them. */
const withScreening = { screening: { select: { status: true } } } as const;

/** An upload as its owner sees it, the owner's reads, and what other domains may read or change of an upload. */
export function createUploadReads(db: Db, storage: MediaStorage) {
  async function view(u: {
    id: number;
    kind: UploadKind;
    storageKey: string;
    thumbKey: string | null;
    width: number | null;
    height: number | null;
    durationMs: number | null;
    sizeBytes: number;
    createdAt: Date;
    screening?: { status: ScreeningStatus } | null;
  }): Promise<UploadView> {
    const review = u.screening?.status ?? null;
    return {
      id: u.id,
      type: u.kind,
      file_url: await storage.signedUrl(u.storageKey),
      thumb_url: u.thumbKey ? await storage.signedUrl(u.thumbKey) : null,
      width: u.width,
      height: u.height,
      duration: u.durationMs === null ? null : u.durationMs / 1000,
      size: u.sizeBytes,
      created_at: u.createdAt.toISOString(),
      review,
      review_message: reviewMessage(u.kind, review),
    };
  }

  return {
    /** What moderation may see and change of an upload: the owner, and the visibility state (reports, takedowns). */
    moderated: {
      /** Uploads are never shown to anyone but their owner. */
      find: async (c: Tx | Db, id: number) => {
        const u = await c.upload.findUnique({ where: { id }, select: { userId: true, state: true } });
        return u && { ...u, isPublic: false };
      },
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
        (await c.upload.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
      media: async (c: Tx | Db, id: number) => {
        const u = await c.upload.findUnique({ where: { id }, select: { kind: true, storageKey: true, mime: true, thumbKey: true } });
        return u && { key: u.storageKey, kind: u.kind, mime: u.mime, posterKey: u.thumbKey };
      },
      byMediaKey: async (c: Tx | Db, key: string) =>
        (await c.upload.findFirst({ where: { OR: [{ storageKey: key }, { thumbKey: key }] }, select: { id: true } }))?.id ?? null,
    },

    /** Guest merge (auth): the guest's uploads become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.upload.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** Account erasure (privacy, decision 262): the account's uploads go; their files once the erasure commits. */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      const rows = await tx.upload.findMany({ where: { userId }, select: { storageKey: true, thumbKey: true } });
      await tx.upload.deleteMany({ where: { userId } });
      return rows.flatMap((r) => (r.thumbKey ? [r.storageKey, r.thumbKey] : [r.storageKey]));
    },

    view,

    async list(userId: number, q: { page: number; limit: number; type?: UploadKind }) {
      const where = { userId, state: "active" as const, ...(q.type ? { kind: q.type } : {}) };
      const [total, rows] = await Promise.all([
        db.upload.count({ where }),
        db.upload.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit, include: withScreening }),
      ]);
      return { list: await Promise.all(rows.map(view)), total, page: q.page, limit: q.limit };
    },

    /**
     * The caller's own active upload; anything else is 404 (never reveals that another's exists). One that screening
     * holds or rejected is refused (403) — every submit names its uploads through here, before charging. Training
     * passes `heldAllowed`: its own set review (docs/decisions/092) holds a set with a held photo for a moderator.
     */
    async own(userId: number, id: number, kind?: UploadKind, o: { heldAllowed?: boolean } = {}) {
      const u = await db.upload.findFirst({ where: { id, userId, state: "active", ...(kind ? { kind } : {}) }, include: withScreening });
      if (!u) throw HttpError.notFound();
      const status = u.screening?.status;
      if (status === "rejected" || (status === "held" && !o.heldAllowed)) throw refuseUnscreened(u.kind, status);
      return u;
    },

    /**
     * The picture of an image another domain shows publicly (a model's or a creator page's cover): a signed thumbnail
     * for browsers and an absolute URL for link previews; null once it is taken down or gone.
     */
    async pictureOf(id: number): Promise<{ url: string; shareUrl: string } | null> {
      const u = await db.upload.findFirst({ where: { id, state: "active", kind: "image" }, select: { thumbKey: true, storageKey: true } });
      if (!u) return null;
      const key = u.thumbKey ?? u.storageKey;
      return { url: await storage.signedUrl(key), shareUrl: await storage.fetchableUrl(key) };
    },

    async details(userId: number, id: number) {
      const u = await db.upload.findFirst({ where: { id, userId, state: "active" }, include: withScreening });
      if (!u) throw HttpError.notFound();
      return view(u);
    },
  };
}

export type UploadReads = ReturnType<typeof createUploadReads>;
