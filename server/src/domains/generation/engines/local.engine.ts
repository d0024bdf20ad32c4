import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { GENERATION_MODES } from "../../../contract/generation.ts";
import { ffmpeg, probe } from "../../../storage/media-tools.ts";
import { EngineError, type EngineFile, type EngineJob, type EngineResult, type EngineStatus, type GenerationEngine, type Resolution } from "./engine.ts";
import { createJobBook, settlement, shownState, type BookedJob } from "./job-book.ts";
import { drawDraft } from "./local.drafts.ts";
import { AAC, even, FPS, H264, imageToVideoArgs, lookFilter, LOOKS, MARGIN, MOTIONS, outputSize, pick } from "./local.filters.ts";

/**
 * The embedded default engine: real media rendered on the CPU with ffmpeg and sharp. It is not AI — its results
 * are labelled "local draft" — but it exercises the whole pipeline (queue, credits, storage, progress) end to end.
 */

interface Running extends BookedJob {
  percent: number;
  error?: string;
  controller: AbortController;
}

/** True when `bin -version` runs: the binary exists, is executable and starts. */
function runs(bin: string): Promise<boolean> {
  return new Promise((resolve) => execFile(bin, ["-version"], { timeout: 10_000 }, (err) => resolve(!err)));
}

export function createLocalEngine(
  opts: { toolPath: (tool: "ffmpeg" | "ffprobe") => string; gpuConfigured?: boolean } = { toolPath: (tool) => tool },
): GenerationEngine {
  const jobs = createJobBook<Running>();

  /** The source photo, scaled and centre-cropped to MARGIN× the output size, and a poster at the output size. */
  async function prepareStill(image: string, resolution: Resolution, workDir: string) {
    const meta = await sharp(image).metadata();
    const { width, height } = outputSize(resolution, meta.width ?? 1, meta.height ?? 1);
    const still = path.join(workDir, "still.png");
    await sharp(image)
      .resize(even(width * MARGIN), even(height * MARGIN), { fit: "cover" })
      .png({ compressionLevel: 1 })
      .toFile(still);
    return { still, width, height };
  }

  async function posterOf(image: string, width: number, height: number, out: string): Promise<EngineFile> {
    await sharp(image).resize(width, height, { fit: "cover" }).jpeg({ quality: 85 }).toFile(out);
    return { path: out, mime: "image/jpeg" };
  }

  async function render(job: EngineJob, report: (fraction: number) => void, signal: AbortSignal): Promise<EngineResult> {
    const seconds = job.durationSec;
    const out = path.join(job.workDir, "output.mp4");
    const posterFile = path.join(job.workDir, "poster.jpg");
    switch (job.mode) {
      case "image_to_video":
      case "audio_overlay":
      case "role_video":
      case "text_to_video": {
        let image = job.image;
        if (job.mode === "text_to_video" && !image) image = (await drawDraft(job, 0)).file;
        if (!image) throw new EngineError("this mode needs a picture");
        const { still, width, height } = await prepareStill(image, job.resolution, job.workDir);
        const motion = pick(job.params.motion, MOTIONS, "zoom_in");
        const [poster] = await Promise.all([
          posterOf(image, width, height, posterFile),
          ffmpeg(imageToVideoArgs({ still, audio: job.audio, motion, width, height, seconds, out }), { signal, totalSec: seconds, onProgress: report }),
        ]);
        return { main: { path: out, mime: "video/mp4" }, extra: [], poster, width, height, durationSec: seconds };
      }
      case "video_to_video": {
        if (!job.video) throw new EngineError("video to video needs a video");
        const src = await probe(job.video);
        if (!src.video) throw new EngineError("the source has no video stream");
        const { width, height } = outputSize(job.resolution, src.video.width, src.video.height);
        const look = pick(job.params.look, LOOKS, "vivid");
        const graph = `[0:v]scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},fps=${FPS},${lookFilter(look)},format=yuv420p,setsar=1[v]`;
        const audio = job.audio ? ["-i", job.audio] : [];
        const audioMap = job.audio ? ["-map", "1:a", ...AAC] : src.audio ? ["-map", "0:a", ...AAC] : ["-an"];
        await ffmpeg(
          ["-stream_loop", "-1", "-i", job.video, ...audio, "-filter_complex", graph, "-map", "[v]", ...audioMap, ...H264, "-t", seconds.toFixed(3), out],
          { signal, totalSec: seconds, onProgress: report },
        );
        await ffmpeg(["-i", out, "-frames:v", "1", "-q:v", "3", posterFile], { signal });
        return { main: { path: out, mime: "video/mp4" }, extra: [], poster: { path: posterFile, mime: "image/jpeg" }, width, height, durationSec: seconds };
      }
      case "text_to_image":
      case "image_batch": {
        const count = job.mode === "image_batch" ? job.count : 1;
        const images: EngineFile[] = [];
        let size = { width: 0, height: 0 };
        for (let i = 0; i < count; i++) {
          signal.throwIfAborted();
          const d = await drawDraft(job, i);
          const jpg = path.join(job.workDir, `image-${i}.jpg`);
          await sharp(d.file).jpeg({ quality: 90 }).toFile(jpg);
          images.push({ path: jpg, mime: "image/jpeg" });
          size = { width: d.width, height: d.height };
          report((i + 1) / count);
        }
        const poster = await posterOf(images[0].path, Math.round(size.width / 2), Math.round(size.height / 2), posterFile);
        return { main: images[0], extra: images.slice(1), poster, ...size };
      }
    }
  }

  return {
    name: "local",
    label: "local draft",
    async status(): Promise<EngineStatus> {
      const [ffmpegOk, ffprobeOk] = await Promise.all([runs(opts.toolPath("ffmpeg")), runs(opts.toolPath("ffprobe"))]);
      const missing = [ffmpegOk ? null : "ffmpeg", ffprobeOk ? null : "ffprobe"].filter(Boolean).join(" and ");
      return {
        engine: "local",
        label: "local draft",
        available: !missing,
        ai: false,
        modes: [...GENERATION_MODES],
        message: missing
          ? `The local draft engine cannot run: ${missing} cannot be started.`
          : opts.gpuConfigured
            ? "Local drafts rendered on the CPU (motion templates, looks and procedural pictures), not AI generations; templates on a GPU engine make AI results."
            : "No AI engine is configured: results are local drafts rendered on the CPU (motion templates, looks and procedural pictures), not AI generations.",
        fix: missing
          ? `Install ${missing} (Debian: apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH to working binaries (tried ${opts.toolPath("ffmpeg")} and ${opts.toolPath("ffprobe")}).`
          : undefined,
      };
    },
    async submit(job) {
      const id = crypto.randomUUID();
      const controller = new AbortController();
      const running: Running = { percent: 0, state: "running", controller, ...settlement() };
      render(job, (f) => (running.percent = Math.max(running.percent, Math.min(99, Math.floor(f * 100)))), controller.signal).then(
        (r) => {
          running.state = "done";
          running.percent = 100;
          running.resolve(r);
        },
        (err: Error) => {
          running.state = controller.signal.aborted ? "cancelled" : "failed";
          running.error = err.message;
          running.reject(err instanceof EngineError ? err : new EngineError(err.message));
        },
      );
      jobs.add(id, running);
      return id;
    },
    async progress(id) {
      const r = jobs.find(id);
      return { percent: r.percent, state: shownState(r), error: r.error };
    },
    result: jobs.result,
    async cancel(id, reason) {
      jobs.get(id)?.controller.abort(new EngineError(reason ?? "cancelled"));
    },
  };
}
