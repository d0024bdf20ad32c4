import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import type { Db, Tx } from "../../db/client.ts";
import { createSlots } from "../../db/slots.ts";
import type { ContentState } from "../../contract/moderation.ts";
import type { UploadKind } from "../../db/generated/enums.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import { IMAGE_TYPES, UPLOAD_LIMITS } from "../../contract/uploads.ts";
import { SCREENING_MESSAGES, type ScreeningRefusal, type ScreeningStatus } from "../../contract/screening.ts";
import type { ScreeningVerdict, UploadScreener } from "../screening/screening.service.ts";
import { bmpSize, bmpToPng } from "../../storage/bmp.ts";
import { ffmpeg, measuredDurationSec, MediaToolError, probe, sniff, type ProbeResult, type Sniffed } from "../../storage/media-tools.ts";

/** SPEC.md §5 / §9 limits. */
export const LIMITS = {
  ...UPLOAD_LIMITS,
  /** Decompression-bomb guard: 50 megapixels decodes in well under a second and ~200 MB. */
  imagePixels: 50_000_000,
  /** Stored images are scaled into this box; renders never need more. */
  imageMaxSide: 2048,
  thumbSide: 360,
} as const;

export interface IncomingFile {
  buffer: Buffer;
  size: number;
}

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

/** The accepted image formats under the names the signature sniffer gives them (it calls jpg "jpeg"). */
const IMAGE_KINDS = new Set<string>(IMAGE_TYPES.map((t) => (t === "jpg" ? "jpeg" : t)));
const AUDIO_KINDS = new Set(["mp3", "wav", "ogg", "flac", "aac", "isobmff", "ebml"]);
const VIDEO_KINDS = new Set(["isobmff", "ebml"]);

/** Size, magic bytes and ffprobe checks shared by audio and video; `fn` gets the source written to a temp dir. */
async function withProbedMedia<T>(
  file: IncomingFile,
  rule: { maxBytes: number; tooBig: string; kinds: Set<string>; unreadable: string },
  fn: (dir: string, src: string, info: ProbeResult, kind: Sniffed) => Promise<T>,
): Promise<T> {
  if (file.size > rule.maxBytes) throw HttpError.badRequest(rule.tooBig);
  const kind = sniff(file.buffer);
  if (!kind || !rule.kinds.has(kind)) throw HttpError.badRequest(rule.unreadable);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-upload-"));
  try {
    const src = path.join(dir, "source");
    await fs.writeFile(src, file.buffer);
    const unreadable = (err: unknown) => {
      if (err instanceof MediaToolError) throw HttpError.badRequest(rule.unreadable);
      throw err;
    };
    const [header, durationSec] = await Promise.all([probe(src).catch(unreadable), measuredDurationSec(src).catch(unreadable)]);
    // the length is measured from the packets, never taken from the header's claim (docs/decisions/073)
    return await fn(dir, src, { ...header, durationSec }, kind);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Images decoded at once per process: one core fewer than the machine has, so several large uploads never take every
 * core from the thread answering requests (docs/decisions/073). The others wait, holding only their upload buffer.
 */
const imageSlot = createSlots(os.availableParallelism() - 1);

/** Decodes an uploaded image by content and returns it re-encoded without metadata (EXIF, GPS), plus a thumbnail. */
export function normaliseImage(buf: Buffer): Promise<{ data: Buffer; thumb: Buffer; width: number; height: number; ext: "jpg" | "png"; mime: string }> {
  return imageSlot(() => decodeAndReencode(buf));
}

async function decodeAndReencode(buf: Buffer): Promise<{ data: Buffer; thumb: Buffer; width: number; height: number; ext: "jpg" | "png"; mime: string }> {
  const kind = sniff(buf);
  if (!kind || !IMAGE_KINDS.has(kind)) throw HttpError.badRequest(MSG.imageFormat);
  let input: Sharp;
  try {
    if (kind === "bmp") {
      // pixel limit from the header, before anything is decoded
      const { width, height } = bmpSize(buf);
      if (width * height > LIMITS.imagePixels) throw HttpError.badRequest(MSG.imageTooManyPixels);
      input = sharp(await bmpToPng(buf, LIMITS.imageMaxSide), { failOn: "error" });
    } else {
      const meta = await sharp(buf).metadata();
      if (!meta.width || !meta.height) throw HttpError.badRequest(MSG.imageUnreadable);
      if (meta.width * meta.height > LIMITS.imagePixels) throw HttpError.badRequest(MSG.imageTooManyPixels);
      input = sharp(buf, { limitInputPixels: LIMITS.imagePixels, failOn: "error" }).rotate();
    }
    const resized = input.resize({ width: LIMITS.imageMaxSide, height: LIMITS.imageMaxSide, fit: "inside", withoutEnlargement: true });
    const { data: pixels, info } = await resized.raw().toBuffer({ resolveWithObject: true });
    const hasAlpha = info.channels === 2 || info.channels === 4;
    // a fresh pipeline per output over the same pixels: sharp's clone() structuredClones its options, raw pixels
    // included (tens of MB), on the API's thread, which held /api/health for 200+ ms per upload
    const decoded = () => sharp(pixels, { raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } });
    const data = hasAlpha ? await decoded().png().toBuffer() : await decoded().jpeg({ quality: 90, mozjpeg: false }).toBuffer();
    const thumb = await decoded().flatten({ background: "#ffffff" }).resize({ width: LIMITS.thumbSide, height: LIMITS.thumbSide, fit: "inside" }).jpeg({ quality: 80 }).toBuffer();
    return { data, thumb, width: info.width, height: info.height, ext: hasAlpha ? "png" : "jpg", mime: hasAlpha ? "image/png" : "image/jpeg" };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw HttpError.badRequest(MSG.imageTooManyPixels);
    throw HttpError.badRequest(MSG.imageUnreadable);
  }
}

/** Every uploaded image's checks (present, at most 10 MB, decodable by content within the pixel limit), answering it re-encoded. */
export async function checkedImage(file: IncomingFile | undefined) {
  if (!file) throw HttpError.badRequest(MSG.fileRequired);
  if (file.size > LIMITS.imageBytes) throw HttpError.badRequest(MSG.imageTooBig);
  return normaliseImage(file.buffer);
}

/** What the person is told about an upload screening held or rejected. */
function reviewMessage(kind: UploadKind, status: ScreeningStatus | null): string | null {
  if (status === "held") return kind === "video" ? SCREENING_MESSAGES.heldVideo : SCREENING_MESSAGES.held;
  if (status === "rejected") return SCREENING_MESSAGES.rejected;
  return null;
}

/** Uploads with their screening status, as every read of an upload takes them. */
const withScreening = { screening: { select: { status: true } } } as const;

export function createUploadsService(db: Db, storage: MediaStorage, screener: UploadScreener) {
  async function view(u: { id: number; kind: UploadKind; storageKey: string; thumbKey: string | null; width: number | null; height: number | null; durationMs: number | null; sizeBytes: number; createdAt: Date; screening?: { status: ScreeningStatus } | null }): Promise<UploadView> {
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

  /** Stores the files, then the row and its screening record in one transaction (an upload never exists unscreened). */
  async function store(userId: number, kind: UploadKind, files: { key: string; data: Buffer | string; mime: string }[], row: { mime: string; sizeBytes: number; width?: number; height?: number; durationMs?: number; trimStartMs?: number; trimEndMs?: number; sha256: string; consentAt: Date | null }, verdict: ScreeningVerdict | null) {
    for (const f of files) {
      if (typeof f.data === "string") await storage.putFile(f.key, f.data, f.mime);
      else await storage.put(f.key, f.data, f.mime);
    }
    const created = await db.$transaction(async (tx) => {
      const u = await tx.upload.create({ data: { userId, kind, storageKey: files[0].key, thumbKey: files[1]?.key ?? null, ...row } });
      if (verdict) await screener.record(tx, u.id, userId, verdict);
      return u;
    });
    return view({ ...created, screening: verdict && { status: verdict.status } });
  }

  /** A held or rejected upload named in a submit: refused before anything is charged (403, `data.reason`). */
  function refuseUnscreened(kind: UploadKind, status: ScreeningStatus) {
    const reason: ScreeningRefusal = status === "held" ? "upload_held" : "upload_rejected";
    return new HttpError(403, reviewMessage(kind, status)!, { reason });
  }

  /** WebCrypto hashes on libuv's thread pool: a 100 MB video is not hashed on the thread that answers requests. */
  const sha = async (b: Buffer) => Buffer.from(await crypto.subtle.digest("SHA-256", b)).toString("hex");

  return {
    /** What moderation may see and change of an upload: the owner, and the visibility state (reports, takedowns). */
    moderated: {
      /** Uploads are never shown to anyone but their owner. */
      find: async (c: Tx | Db, id: number) => {
        const u = await c.upload.findUnique({ where: { id }, select: { userId: true, state: true } });
        return u && { ...u, isPublic: false };
      },
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) => (await c.upload.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
      media: async (c: Tx | Db, id: number) => {
        const u = await c.upload.findUnique({ where: { id }, select: { kind: true, storageKey: true, mime: true } });
        return u && { key: u.storageKey, kind: u.kind, mime: u.mime };
      },
      byMediaKey: async (c: Tx | Db, key: string) => (await c.upload.findFirst({ where: { OR: [{ storageKey: key }, { thumbKey: key }] }, select: { id: true } }))?.id ?? null,
    },

    /** Guest merge (auth): the guest's uploads become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.upload.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    view,

    async uploadImage(userId: number, file: IncomingFile | undefined, o: { consent: boolean }): Promise<UploadView> {
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      if (!o.consent) throw HttpError.badRequest(MSG.consentRequired);
      const img = await checkedImage(file);
      // screened before anything can be generated from it (issue 19): blocked media is refused, a young-looking face held
      const verdict = await screener.screenImage(userId, img.data);
      return store(
        userId,
        "image",
        [
          { key: mediaKey(userId, "uploads", img.ext), data: img.data, mime: img.mime },
          { key: mediaKey(userId, "thumbs", "jpg"), data: img.thumb, mime: "image/jpeg" },
        ],
        { mime: img.mime, sizeBytes: img.data.length, width: img.width, height: img.height, sha256: await sha(file.buffer), consentAt: new Date() },
        verdict,
      );
    },

    /**
     * A picture one of the caller's generations made, kept as their own image upload (a copy: generation results
     * expire, an avatar must not). No consent attestation: nobody's photo was uploaded.
     */
    async keepGeneratedImage(userId: number, key: string): Promise<UploadView> {
      const buf = await storage.get(key);
      const img = await normaliseImage(buf);
      // a generated face is screened like an uploaded one: a character that looks young is held for review
      const verdict = await screener.screenImage(userId, img.data);
      return store(
        userId,
        "image",
        [
          { key: mediaKey(userId, "uploads", img.ext), data: img.data, mime: img.mime },
          { key: mediaKey(userId, "thumbs", "jpg"), data: img.thumb, mime: "image/jpeg" },
        ],
        { mime: img.mime, sizeBytes: img.data.length, width: img.width, height: img.height, sha256: await sha(buf), consentAt: null },
        verdict,
      );
    },

    async uploadAudio(userId: number, given: IncomingFile | undefined, trim: { start?: number; end?: number; media_id?: number }): Promise<UploadView> {
      const fromVideo = !given && trim.media_id ? await storage.get((await this.own(userId, trim.media_id, "video")).storageKey) : undefined;
      const file = given ?? (fromVideo && { buffer: fromVideo, size: fromVideo.length });
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      return withProbedMedia(file, { maxBytes: LIMITS.audioBytes, tooBig: MSG.audioTooBig, kinds: AUDIO_KINDS, unreadable: MSG.audioFormat }, async (dir, src, info) => {
        if (!info.audio) throw HttpError.badRequest(MSG.audioFormat);
        if (info.durationSec > LIMITS.audioSourceSec) throw HttpError.badRequest(MSG.audioTooLong);
        const start = trim.start ?? 0;
        const end = trim.end ?? Math.min(info.durationSec, start + LIMITS.trimMaxSec);
        if (start >= end || end > info.durationSec + 0.05) throw HttpError.badRequest(MSG.trimInvalid);
        const length = end - start;
        if (length < LIMITS.trimMinSec - 1e-6 || length > LIMITS.trimMaxSec + 1e-6) throw HttpError.badRequest(MSG.trimLength);
        const out = path.join(dir, "trimmed.m4a");
        await ffmpeg(["-ss", start.toFixed(3), "-t", length.toFixed(3), "-i", src, "-vn", "-map_metadata", "-1", "-c:a", "aac", "-b:a", "160k", "-movflags", "+faststart", out]).catch(() => {
          throw HttpError.badRequest(MSG.audioFormat);
        });
        const stat = await fs.stat(out);
        return store(userId, "audio", [{ key: mediaKey(userId, "uploads", "m4a"), data: out, mime: "audio/mp4" }], {
          mime: "audio/mp4",
          sizeBytes: stat.size,
          durationMs: Math.round(length * 1000),
          trimStartMs: Math.round(start * 1000),
          trimEndMs: Math.round(end * 1000),
          sha256: await sha(file.buffer),
          consentAt: null,
        }, null);
      });
    },

    async uploadVideo(userId: number, file: IncomingFile | undefined, o: { consent: boolean; start?: number; end?: number }): Promise<UploadView> {
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      if (!o.consent) throw HttpError.badRequest(MSG.consentRequired);
      return withProbedMedia(file, { maxBytes: LIMITS.videoBytes, tooBig: MSG.videoTooBig, kinds: VIDEO_KINDS, unreadable: MSG.videoUnparsable }, async (dir, src, info, kind) => {
        if (!info.video || !info.video.width || !info.durationSec) throw HttpError.badRequest(MSG.videoUnparsable);
        // a chosen range is what is stored and used; the 4-30 s rule applies to it (the source may be longer, like audio's)
        const trimmed = o.start !== undefined || o.end !== undefined;
        const start = o.start ?? 0;
        const end = o.end ?? info.durationSec;
        if (trimmed && (start >= end || end > info.durationSec + 0.05 || info.durationSec > LIMITS.audioSourceSec)) throw HttpError.badRequest(MSG.trimInvalid);
        const length = Math.min(end, info.durationSec) - start;
        if (length > LIMITS.videoMaxSec + 0.05) throw HttpError.badRequest(MSG.videoTooLong);
        if (length < LIMITS.videoMinSec - 0.05) throw HttpError.badRequest(MSG.videoTooShort);
        const whole = start < 0.05 && length >= info.durationSec - 0.05;
        const ext = kind === "ebml" && whole ? "webm" : "mp4";
        const out = path.join(dir, `clean.${ext}`);
        const poster = path.join(dir, "poster.jpg");
        // without metadata (phones put GPS in MOV/MP4 atoms): the whole clip is remuxed with its streams copied; a range
        // is re-encoded, since a stream copy can only start at a keyframe
        const encode = whole
          ? ["-i", src, "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy"]
          : ["-ss", start.toFixed(3), "-i", src, "-t", length.toFixed(3), "-map", "0:v:0", "-map", "0:a:0?", "-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "160k"];
        await ffmpeg([...encode, "-map_metadata", "-1", ...(ext === "mp4" ? ["-movflags", "+faststart"] : []), out]).catch(() => {
          throw HttpError.badRequest(MSG.videoUnparsable);
        });
        await ffmpeg(["-ss", "0.5", "-i", out, "-frames:v", "1", "-vf", `scale=${LIMITS.thumbSide}:-2`, poster]).catch(() => {
          throw HttpError.badRequest(MSG.videoUnparsable);
        });
        const stat = await fs.stat(out);
        const mime = ext === "webm" ? "video/webm" : "video/mp4";
        // sampled frames of the stored clip are screened like photos (issue 19)
        const verdict = await screener.screenVideo(userId, out, length, dir);
        return store(
          userId,
          "video",
          [
            { key: mediaKey(userId, "uploads", ext), data: out, mime },
            { key: mediaKey(userId, "thumbs", "jpg"), data: poster, mime: "image/jpeg" },
          ],
          {
            mime,
            sizeBytes: stat.size,
            width: info.video.width,
            height: info.video.height,
            durationMs: Math.round(length * 1000),
            ...(whole ? {} : { trimStartMs: Math.round(start * 1000), trimEndMs: Math.round((start + length) * 1000) }),
            sha256: await sha(file.buffer),
            consentAt: new Date(),
          },
          verdict,
        );
      });
    },

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

    async details(userId: number, id: number) {
      const u = await db.upload.findFirst({ where: { id, userId, state: "active" }, include: withScreening });
      if (!u) throw HttpError.notFound();
      return view(u);
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
