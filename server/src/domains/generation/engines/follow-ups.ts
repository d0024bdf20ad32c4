import fs from "node:fs/promises";
import path from "node:path";
import { ffmpeg, probe, type ProbeResult } from "../../../storage/media-tools.ts";
import type { FollowUp } from "../../../contract/generation.ts";
import { EngineError, type EngineJob, type EngineResult } from "./engine.ts";

/**
 * The media steps of an extension on our side (decision 307): the finished clip's last frame, which the GPU engine's
 * image-to-video workflow continues from, and the join of the clip and its continuation into one file. The clip is
 * never re-encoded: the join copies both streams (ffmpeg's concat demuxer, `-c copy`).
 */

/** The clip's last frame as a lossless PNG in `workDir`. */
export async function lastFrame(clip: string, workDir: string): Promise<string> {
  const out = path.join(workDir, "last-frame.png");
  // read from a second before the end, each decoded frame overwriting the file: the last one written is the last frame
  await ffmpeg(["-sseof", "-1", "-i", clip, "-an", "-update", "1", "-vsync", "0", out]);
  await fs.access(out).catch(() => {
    throw new EngineError("the clip to extend has no frame to continue from");
  });
  return out;
}

/** What must be equal for two clips to be joined stream-copied. */
function streamShape(p: ProbeResult) {
  if (!p.video) throw new EngineError("a clip to join has no video");
  return { codec: p.video.codec, width: p.video.width, height: p.video.height, pixFmt: p.video.pixFmt, rate: p.video.rate };
}

/** A picture laid over a video at `left`, `top` in one encode (the watermark of a free continuation, decision 316). */
export interface Overlay {
  file: string;
  left: number;
  top: number;
}

/**
 * `first` then `second` as one MP4 in `workDir`, pictures only: a clip with a sound of its own is not extended
 * (decision 307). The clip is copied as it is. The continuation is encoded once, only where it must be: to the clip's
 * shape where its stream differs (another size, rate or codec: a clip of another workflow), and with `overlay` laid
 * over it (a free extension's mark, decision 316) — both in the same pass. `made` is ffprobe's reading of `second`,
 * taken already; answers the joined file with its size and length.
 */
export async function joinClips(first: string, second: string, made: ProbeResult, workDir: string, overlay?: Overlay) {
  const clip = await probe(first);
  const a = streamShape(clip);
  const b = streamShape(made);
  let tail = second;
  const reshape = a.codec !== b.codec || a.width !== b.width || a.height !== b.height || a.pixFmt !== b.pixFmt || a.rate !== b.rate;
  if (reshape || overlay) {
    tail = path.join(workDir, "continuation-matched.mp4");
    // the fps filter, not -r: it keeps the continuation's length exactly (-r pads it by frames)
    const fit = [`scale=${a.width}:${a.height}`, "setsar=1", ...(a.rate ? [`fps=${a.rate}`] : [])].join(",");
    const graph = overlay
      ? ["-i", overlay.file, "-filter_complex", `[0:v]${fit}[c];[c][1:v]overlay=${overlay.left}:${overlay.top}[v]`, "-map", "[v]"]
      : ["-vf", fit];
    // the same H.264 settings as the watermark's and the local engine's encodes (decisions 062, 296)
    const encode = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", a.pixFmt ?? "yuv420p"];
    await ffmpeg(["-i", second, ...graph, "-an", ...encode, tail]);
  }
  const list = path.join(workDir, "join.txt");
  await fs.writeFile(list, [first, tail].map((f) => `file '${f.replaceAll("'", "'\\''")}'`).join("\n"));
  const out = path.join(workDir, "extended.mp4");
  await ffmpeg(["-f", "concat", "-safe", "0", "-i", list, "-map", "0:v", "-c", "copy", "-movflags", "+faststart", out]);
  // the parts' lengths added: a copy changes neither, so the join is not read again
  return { file: out, width: a.width, height: a.height, durationSec: clip.durationSec + made.durationSec };
}

/**
 * An extension's result made whole: its continuation (`main`, with `overlay` over it where it is marked) joined after
 * the clip it continues, with the joined clip's size and length. Any other result is answered as it is.
 */
export async function joinContinuation(r: EngineResult, overlay?: Overlay): Promise<EngineResult> {
  if (!r.continues) return r;
  // the join compares pixel formats and frame rates, which only ffprobe reads
  const joined = await joinClips(r.continues, r.main.path, await probe(r.main.path), path.dirname(r.main.path), overlay);
  const { continues: _, ...rest } = r;
  return { ...rest, main: { ...r.main, path: joined.file }, width: joined.width, height: joined.height, durationSec: joined.durationSec };
}

/**
 * The engine's job for a follow-up task (decision 307), from the job its input makes (the finished result as `video`
 * or `image`): an upscale runs only an upscale workflow; an extension is an image-to-video job from the clip's last
 * frame, for its own seconds, joined after the clip when it comes back.
 */
export async function followUpJob(kind: FollowUp, job: EngineJob, extendSec?: number): Promise<EngineJob> {
  if (kind === "upscale") return { ...job, followUp: "upscale" };
  if (!job.video) throw new EngineError("an extension needs the clip it continues");
  return { ...job, image: await lastFrame(job.video, job.workDir), video: undefined, continues: job.video, durationSec: extendSec ?? job.durationSec };
}
