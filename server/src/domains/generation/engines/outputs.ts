import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { ffmpeg } from "../../../storage/media-tools.ts";
import { mediaInfo } from "../../../storage/mp4-header.ts";
import { EngineError, type EngineFile, type EngineJob, type EngineResult } from "./engine.ts";

/** A UUID made from a key, so the same key always names the same job on a back end (our own ComfyUI prompt_id). */
export function uuidFromKey(key: string): string {
  const h = crypto.createHash("sha256").update(key).digest();
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

export const mimeOf = (file: string) =>
  /\.mp4$/i.test(file) ? "video/mp4" : /\.webp$/i.test(file) ? "image/webp" : /\.jpe?g$/i.test(file) ? "image/jpeg" : "image/png";

const isVideoFile = (file: string) => /\.(mp4|webm|mov)$/i.test(file);

/** The clip's size and length from its header, else from ffprobe; null when it is no video. */
async function measure(video: string) {
  const src = await mediaInfo(video).catch(() => null);
  return src?.video ? src : null;
}

/**
 * What every GPU engine does with the files it brought back: measures them, makes the poster and lays the job's audio
 * over a video that came back silent. A lip-synced video comes back with the audio it was made from (decision 305). A
 * video workflow that saves its first frame (binding `poster`) spares us decoding one with ffmpeg (decision 314). An
 * extension comes back as its continuation alone, with the clip's first frame as its poster: the join waits for the
 * watermark step, which may mark the new part first (decisions 307, 316).
 */
export async function finishOutputs(job: EngineJob, files: string[], kind: "video" | "images"): Promise<EngineResult> {
  if (!files.length) throw new EngineError("the back end finished without an output file");
  const posterFile = path.join(job.workDir, "poster.jpg");
  if (kind === "images") {
    const meta = await sharp(files[0]).metadata();
    if (!meta.width || !meta.height) throw new EngineError("the back end returned an unreadable image");
    await sharp(files[0])
      .resize(Math.round(meta.width / 2), Math.round(meta.height / 2))
      .jpeg({ quality: 85 })
      .toFile(posterFile);
    const [main, ...extra] = files.map((f): EngineFile => ({ path: f, mime: mimeOf(f) }));
    return { main, extra, poster: { path: posterFile, mime: "image/jpeg" }, width: meta.width, height: meta.height };
  }
  let video = files.find(isVideoFile) ?? files[0];
  // an extension's poster is its clip's first frame, not the continuation's the graph saved
  const frame = job.continues ? undefined : files.find((f) => !isVideoFile(f));
  const made = await measure(video);
  if (!made?.video) throw new EngineError("the back end returned a file that is not a video");
  const src = { size: made.video, durationSec: made.durationSec };
  if (job.audio && !made.audio) {
    const mixed = path.join(job.workDir, "with-audio.mp4");
    await ffmpeg([
      "-i",
      video,
      "-i",
      job.audio,
      "-filter_complex",
      `[1:a]apad,atrim=0:${src.durationSec.toFixed(3)}[a]`,
      "-map",
      "0:v",
      "-map",
      "[a]",
      "-c:v",
      "copy",
      "-c:a",
      "aac",
      "-b:a",
      "128k",
      "-movflags",
      "+faststart",
      mixed,
    ]);
    video = mixed;
  }
  if (frame) await sharp(frame).jpeg({ quality: 85 }).toFile(posterFile);
  else await ffmpeg(["-i", job.continues ?? video, "-frames:v", "1", "-q:v", "3", posterFile]);
  return {
    main: { path: video, mime: "video/mp4" },
    extra: [],
    poster: { path: posterFile, mime: "image/jpeg" },
    width: src.size.width,
    height: src.size.height,
    durationSec: src.durationSec,
    continues: job.continues,
  };
}
