import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import type { FaceAnalyser } from "../../faces/faces.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { HoldCause, ScreeningDecision, ScreeningStatus } from "../../contract/screening.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { BlocklistService } from "./blocklist.service.ts";
import { sampleFrames } from "./frames.ts";
import { perceptualHash } from "./phash.ts";
import type { ScreeningFilter } from "./screening.schema.ts";

/** What the face check found in one upload: the decision and what it rests on, before the upload row exists. */
export interface ScreeningVerdict {
  status: Extract<ScreeningStatus, "clear" | "held">;
  holdCause: HoldCause | null;
  /** faces found (a video: the most in any sampled frame); null when the model failed */
  faces: number | null;
  youngestAge: number | null;
  framesChecked: number;
}

/**
 * Screening of uploaded photos and video frames (issue 19, docs/decisions/140): Human's face model (the one shared
 * loader of server/src/faces, off the request thread) estimates the apparent age of every face; one under
 * SCREENING_REVIEW_AGE holds the upload for a moderator. An estimate is never proof of adulthood: it can only hold,
 * and a photo without a face is not held by age (the uploader's 18+ attestation, reports and takedowns still apply).
 * A model failure holds too. Before the faces, the upload's perceptual hashes are looked up in the blocklist of
 * taken-down media (decision 142): a match is refused outright. This domain owns `upload_screenings`; the uploads
 * domain asks it before storing and refuses held or rejected uploads in every submit.
 */
export function createScreeningService(deps: {
  db: Db;
  config: Config;
  log: Logger;
  faces: FaceAnalyser;
  storage: MediaStorage;
  audit: AuditService;
  blocklist: BlocklistService;
}) {
  const { db, config, log, faces, storage, audit, blocklist } = deps;

  /** The decision from the faces of every checked frame (ages of all faces together). */
  function decide(frames: { faces: number; ages: number[] }[] | null): ScreeningVerdict {
    if (!frames) return { status: "held", holdCause: "model_failed", faces: null, youngestAge: null, framesChecked: 0 };
    const ages = frames.flatMap((f) => f.ages);
    const youngestAge = ages.length ? Math.min(...ages) : null;
    const held = youngestAge !== null && youngestAge < config.SCREENING_REVIEW_AGE;
    return {
      status: held ? "held" : "clear",
      holdCause: held ? "apparent_age" : null,
      faces: Math.max(0, ...frames.map((f) => f.faces)),
      youngestAge,
      framesChecked: frames.length,
    };
  }

  async function facesIn(images: Buffer[]): Promise<{ faces: number; ages: number[] }[] | null> {
    try {
      const found = [];
      for (const image of images) {
        const f = await faces.detect(image);
        found.push({ faces: f.length, ages: f.map((x) => x.age).filter((a): a is number => typeof a === "number") });
      }
      return found;
    } catch (err) {
      log.error({ err }, "screening: the face model failed; the upload is held for review");
      return null;
    }
  }

  const signed = (key: string | null) => (key ? storage.signedUrl(key, 15 * 60) : null);

  async function row(id: number) {
    const s = await db.uploadScreening.findUnique({
      where: { id },
      include: { upload: { select: { kind: true, storageKey: true, thumbKey: true, state: true, width: true, height: true } } },
    });
    if (!s) return null;
    const { upload, ...rest } = s;
    return {
      ...rest,
      kind: upload.kind,
      uploadState: upload.state,
      width: upload.width,
      height: upload.height,
      previewUrl: await signed(upload.thumbKey ?? upload.storageKey),
      fileUrl: await signed(upload.storageKey),
    };
  }

  return {
    /**
     * A photo, already decoded and re-encoded by uploads (so the bytes are an image sharp reads): refused (403) when
     * it matches the blocklist, else the face verdict.
     */
    async screenImage(userId: number, image: Buffer): Promise<ScreeningVerdict> {
      await blocklist.refuseBlockedUpload(userId, [await perceptualHash(image)]);
      return decide(await facesIn([image]));
    },

    /** Frames sampled from a stored video file (the re-encoded clip), `lengthSec` long: blocklist, then faces. */
    async screenVideo(userId: number, file: string, lengthSec: number, workDir: string): Promise<ScreeningVerdict> {
      let frames: Buffer[];
      try {
        frames = await sampleFrames(file, lengthSec, workDir);
      } catch (err) {
        log.error({ err }, "screening: frames could not be sampled; the video is held for review");
        return decide(null);
      }
      if (frames.length === 0) return decide(null);
      await blocklist.refuseBlockedUpload(userId, await Promise.all(frames.map((f) => perceptualHash(f))));
      return decide(await facesIn(frames));
    },

    /** Records the verdict in the transaction that creates the upload: an upload never exists unscreened. */
    async record(tx: Tx, uploadId: number, userId: number, v: ScreeningVerdict): Promise<void> {
      await tx.uploadScreening.create({
        data: { uploadId, userId, status: v.status, holdCause: v.holdCause, faces: v.faces, youngestAge: v.youngestAge, framesChecked: v.framesChecked },
      });
    },

    /** Guest merge (auth): the guest's screening records follow their uploads to the account. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.uploadScreening.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** Account erasure (privacy, decision 262): the screening records of the account's uploads go before the uploads. */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.uploadScreening.deleteMany({ where: { userId } });
      return [];
    },

    /** The console queue (filter status = held) with the estimate and a short-lived preview URL. */
    async list(params: ListParams<ScreeningFilter>) {
      const page = await pageOf(db.uploadScreening, params, matching(params.filter, ["status", "userId", "uploadId", "holdCause"]), {
        include: { upload: { select: { kind: true, storageKey: true, thumbKey: true } } },
      });
      return {
        ...page,
        rows: await Promise.all(
          page.rows.map(async ({ upload, ...s }: any) => ({ ...s, kind: upload.kind, previewUrl: await signed(upload.thumbKey ?? upload.storageKey) })),
        ),
      };
    },

    get: row,

    /** A moderator approves (the upload becomes usable) or rejects (never usable) a held upload, audited. */
    async review(staffId: number, id: number, decision: ScreeningDecision, reason: string | undefined) {
      if (decision === "reject" && !reason) throw HttpError.badRequest("Please give a reason");
      const status = decision === "approve" ? "approved" : "rejected";
      await db.$transaction(async (tx) => {
        const moved = await tx.uploadScreening.updateMany({
          where: { id, status: "held" },
          data: { status, reviewedBy: staffId, reviewReason: reason ?? null, reviewedAt: new Date() },
        });
        if (moved.count === 0) {
          if (!(await tx.uploadScreening.findUnique({ where: { id }, select: { id: true } }))) throw HttpError.notFound();
          throw HttpError.conflict("This upload is not waiting for review");
        }
        const s = await tx.uploadScreening.findUniqueOrThrow({ where: { id } });
        await audit.record(tx, {
          staffId,
          action: `screening_${decision}`,
          resource: "Upload",
          resourceId: s.uploadId,
          before: { status: "held" },
          after: { status },
          reason: reason ?? null,
        });
      });
      return row(id);
    },
  };
}

export type ScreeningService = ReturnType<typeof createScreeningService>;
/** What uploads needs of screening: the check and its record. */
export type UploadScreener = Pick<ScreeningService, "screenImage" | "screenVideo" | "record">;
