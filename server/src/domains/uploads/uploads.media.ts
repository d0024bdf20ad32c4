import fs from "node:fs/promises";
import path from "node:path";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { ffmpeg, type ProbeResult, type Sniffed } from "../../storage/media-tools.ts";
import { mediaKey, type MediaStorage } from "../../storage/storage.ts";
import type { UploadScreener } from "../screening/screening.service.ts";
import { AUDIO_KINDS, LIMITS, VIDEO_KINDS, withProbedMedia, type IncomingFile } from "./uploads.checks.ts";
import type { UploadReads, UploadView } from "./uploads.reads.ts";
import { sha, type StoreUpload } from "./uploads.store.ts";

/** The clip a video upload keeps: its range of the source (`whole` when that is all of it) and its frame size. */
interface KeptClip {
  start: number;
  length: number;
  whole: boolean;
  width: number;
  height: number;
}

/** The clip a video upload keeps, within the 4-30 s rule; 400 when the source has no video or the range breaks the rule. */
function keptClip(info: ProbeResult, o: { start?: number; end?: number }): KeptClip {
  if (!info.video?.width || !info.durationSec) throw HttpError.badRequest(MSG.videoUnparsable);
  // a chosen range is what is stored and used; the 4-30 s rule applies to it (the source may be longer, like audio's)
  const trimmed = o.start !== undefined || o.end !== undefined;
  const start = o.start ?? 0;
  const end = o.end ?? info.durationSec;
  if (trimmed && (start >= end || end > info.durationSec + 0.05 || info.durationSec > LIMITS.audioSourceSec)) throw HttpError.badRequest(MSG.trimInvalid);
  const length = Math.min(end, info.durationSec) - start;
  if (length > LIMITS.videoMaxSec + 0.05) throw HttpError.badRequest(MSG.videoTooLong);
  if (length < LIMITS.videoMinSec - 0.05) throw HttpError.badRequest(MSG.videoTooShort);
  return { start, length, whole: start < 0.05 && length >= info.durationSec - 0.05, width: info.video.width, height: info.video.height };
}

/** Writes the clip to keep (and its poster frame) into `dir`; answers their paths and the clip's container. */
async function cleanVideo(dir: string, src: string, kind: Sniffed, r: KeptClip): Promise<{ out: string; poster: string; ext: "webm" | "mp4" }> {
  const ext = kind === "ebml" && r.whole ? "webm" : "mp4";
  const out = path.join(dir, `clean.${ext}`);
  const poster = path.join(dir, "poster.jpg");
  // without metadata (phones put GPS in MOV/MP4 atoms): the whole clip is remuxed with its streams copied; a range
  // is re-encoded, since a stream copy can only start at a keyframe
  const encode = r.whole
    ? ["-i", src, "-map", "0:v:0", "-map", "0:a:0?", "-c", "copy"]
    : [
        "-ss",
        r.start.toFixed(3),
        "-i",
        src,
        "-t",
        r.length.toFixed(3),
        "-map",
        "0:v:0",
        "-map",
        "0:a:0?",
        "-c:v",
        "libx264",
        "-preset",
        "veryfast",
        "-crf",
        "20",
        "-pix_fmt",
        "yuv420p",
        "-c:a",
        "aac",
        "-b:a",
        "160k",
      ];
  await ffmpeg([...encode, "-map_metadata", "-1", ...(ext === "mp4" ? ["-movflags", "+faststart"] : []), out]).catch(() => {
    throw HttpError.badRequest(MSG.videoUnparsable);
  });
  await ffmpeg(["-ss", "0.5", "-i", out, "-frames:v", "1", "-vf", `scale=${LIMITS.thumbSide}:-2`, poster]).catch(() => {
    throw HttpError.badRequest(MSG.videoUnparsable);
  });
  return { out, poster, ext };
}

/** Audio and video uploads: probed, trimmed or re-encoded without metadata, then stored. */
export function createMediaUploads(storage: MediaStorage, screener: UploadScreener, store: StoreUpload, own: UploadReads["own"]) {
  return {
    /**
     * A voice is a person's too (issue 46 item 2): a sound file carries the same attestation as a photo or a video; the
     * sound of one's own video upload was attested with that video.
     */
    async uploadAudio(
      userId: number,
      given: IncomingFile | undefined,
      trim: { consent: boolean; start?: number; end?: number; media_id?: number },
    ): Promise<UploadView> {
      if (given && !trim.consent) throw HttpError.badRequest(MSG.consentRequired);
      const fromVideo = !given && trim.media_id ? await storage.get((await own(userId, trim.media_id, "video")).storageKey) : undefined;
      const file = given ?? (fromVideo && { buffer: fromVideo, size: fromVideo.length });
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      return withProbedMedia(
        file,
        { maxBytes: LIMITS.audioBytes, tooBig: MSG.audioTooBig, kinds: AUDIO_KINDS, unreadable: MSG.audioFormat },
        async (dir, src, info) => {
          if (!info.audio) throw HttpError.badRequest(MSG.audioFormat);
          if (info.durationSec > LIMITS.audioSourceSec) throw HttpError.badRequest(MSG.audioTooLong);
          const start = trim.start ?? 0;
          const end = trim.end ?? Math.min(info.durationSec, start + LIMITS.trimMaxSec);
          if (start >= end || end > info.durationSec + 0.05) throw HttpError.badRequest(MSG.trimInvalid);
          const length = end - start;
          if (length < LIMITS.trimMinSec - 1e-6 || length > LIMITS.trimMaxSec + 1e-6) throw HttpError.badRequest(MSG.trimLength);
          const out = path.join(dir, "trimmed.m4a");
          await ffmpeg([
            "-ss",
            start.toFixed(3),
            "-t",
            length.toFixed(3),
            "-i",
            src,
            "-vn",
            "-map_metadata",
            "-1",
            "-c:a",
            "aac",
            "-b:a",
            "160k",
            "-movflags",
            "+faststart",
            out,
          ]).catch(() => {
            throw HttpError.badRequest(MSG.audioFormat);
          });
          const stat = await fs.stat(out);
          return store(
            userId,
            "audio",
            [{ key: mediaKey(userId, "uploads", "m4a"), data: out, mime: "audio/mp4" }],
            {
              mime: "audio/mp4",
              sizeBytes: stat.size,
              durationMs: Math.round(length * 1000),
              trimStartMs: Math.round(start * 1000),
              trimEndMs: Math.round(end * 1000),
              sha256: await sha(file.buffer),
              consentAt: new Date(),
            },
            null,
          );
        },
      );
    },

    async uploadVideo(userId: number, file: IncomingFile | undefined, o: { consent: boolean; start?: number; end?: number }): Promise<UploadView> {
      if (!file) throw HttpError.badRequest(MSG.fileRequired);
      if (!o.consent) throw HttpError.badRequest(MSG.consentRequired);
      return withProbedMedia(
        file,
        { maxBytes: LIMITS.videoBytes, tooBig: MSG.videoTooBig, kinds: VIDEO_KINDS, unreadable: MSG.videoUnparsable },
        async (dir, src, info, kind) => {
          const r = keptClip(info, o);
          const { out, poster, ext } = await cleanVideo(dir, src, kind, r);
          const stat = await fs.stat(out);
          const mime = ext === "webm" ? "video/webm" : "video/mp4";
          // sampled frames of the stored clip are screened like photos (issue 19)
          const verdict = await screener.screenVideo(userId, out, r.length, dir);
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
              width: r.width,
              height: r.height,
              durationMs: Math.round(r.length * 1000),
              ...(r.whole ? {} : { trimStartMs: Math.round(r.start * 1000), trimEndMs: Math.round((r.start + r.length) * 1000) }),
              sha256: await sha(file.buffer),
              consentAt: new Date(),
            },
            verdict,
          );
        },
      );
    },
  };
}
