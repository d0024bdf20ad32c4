import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { pino } from "pino";
import sharp from "sharp";
import { createComfyEngine } from "../server/src/domains/generation/engines/comfyui.engine.ts";
import type { EngineJob, EngineResult } from "../server/src/domains/generation/engines/engine.ts";
import { followUpJob, joinContinuation } from "../server/src/domains/generation/engines/follow-ups.ts";
import { mediaToolPath } from "../server/src/storage/media-binaries.ts";
import { loadWorkflows } from "../server/src/domains/generation/engines/workflows.ts";
import { ffmpeg } from "../server/src/storage/media-tools.ts";
import { fakeServers } from "./comfyui-pool.bench.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const JOBS = 30;
const SERVER_MS = 100;

/** Each video packet's MD5 (ffprobe): equal lists are the same encoded pictures, so no encode of ours came between. */
async function packets(file: string): Promise<string[]> {
  const args = ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=data_hash", "-show_data_hash", "MD5", "-of", "csv=p=0", file];
  return (await promisify(execFile)(mediaToolPath("ffprobe"), args)).stdout.trim().split("\n");
}

/**
 * Encodes of ours in a follow-up's result (decision 307), by ffprobe: 0 when its packets are the server's own (an
 * upscale), or the clip's and then the continuation's (an extension; each part's first packet carries its own
 * parameter sets in the join, so it is left out).
 */
async function ourEncodes(r: EngineResult, job: EngineJob): Promise<number> {
  const videos = (await fs.readdir(job.workDir)).filter((f) => f.endsWith(".mp4"));
  // an upscale: the stored file is the server's download itself, the only video made in the job's folder
  if (!job.continues) return videos.length === 1 && path.basename(r.main.path) === videos[0] ? 0 : videos.length;
  const made = videos.find((f) => path.join(job.workDir, f) !== r.main.path)!;
  const [result, head, tail] = await Promise.all([packets(r.main.path), packets(job.continues), packets(path.join(job.workDir, made))]);
  const inner = [...result.slice(1, head.length), ...result.slice(head.length + 1)];
  return result.length === head.length + tail.length && inner.join() === [...head.slice(1), ...tail.slice(1)].join() ? 0 : 1;
}

/**
 * Issue 33: Reverie's own time per GPU job for a transition (two photos uploaded), a camera move, motion copied from
 * a video (a photo and a 10 s video uploaded, windows chained), a lip-synced audio overlay (the photo and a 5 s audio
 * uploaded, the result carrying it), an extension (the clip's last frame taken, the continuation joined) and a 1080p
 * upscale, one job at a time on an idle fake server that takes a fixed time per prompt: submit to stored result, less
 * the server's own time; and for the follow-ups, the encodes of ours beyond the server's one pass, by ffprobe.
 */
export default async function bench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-transitions-"));
  const one = await fakeServers(1, SERVER_MS);
  const engine = createComfyEngine({
    urls: one.urls,
    workflows: loadWorkflows(),
    models: {},
    healthMs: 1000,
    workflowCheckMs: 600_000,
    maxTries: 1,
    log: pino({ level: "silent" }),
  });
  try {
    const photo = async (name: string, background: string) => {
      const file = path.join(dir, name);
      await sharp({ create: { width: 640, height: 360, channels: 3, background } })
        .jpeg()
        .toFile(file);
      return file;
    };
    const clip = path.join(dir, "reference.mp4");
    // a trimmed audio upload as the uploads domain stores it: AAC in MP4
    const sound = path.join(dir, "sound.m4a");
    const [first, last] = await Promise.all([
      photo("first.jpg", "#8b5cf6"),
      photo("last.jpg", "#ec4899"),
      ffmpeg(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=15:duration=10", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip]),
      ffmpeg(["-f", "lavfi", "-i", "sine=frequency=330:duration=5", "-c:a", "aac", "-b:a", "160k", sound]),
    ]);
    await engine.status();
    // a finished clip of the same workflow to follow up, as a person's would be
    const clipDir = path.join(dir, "clip");
    await fs.mkdir(clipDir);
    const source = { mode: "image_to_video", workDir: clipDir, image: first, params: {}, resolution: "480P", durationSec: 1, count: 1, seed: 0 } as const;
    const finished = (await engine.result(await engine.submit({ ...source, key: "bench:clip" }))).main.path;
    // plain image to video beside them: the same video path without a second photo or a move
    const kinds: [string, Partial<EngineJob>, ((job: EngineJob) => Promise<EngineJob>)?][] = [
      ["plain image to video (wan22-i2v-14b)", {}],
      ["transition between two photos (wan22-flf2v-14b)", { endImage: last }],
      ["camera move (wan22-fun-camera-14b)", { camera: "zoom_in" }],
      ["copied motion (wan22-animate-14b)", { mode: "video_to_video", video: clip, durationSec: 10 }],
      ["lip-synced audio overlay of 5 s (wan22-s2v-14b)", { mode: "audio_overlay", audio: sound, durationSec: 5 }],
      ["extension from the last frame, joined (wan22-i2v-14b)", { video: finished }, (job) => followUpJob("extend", job, 1)],
      // as the worker builds it: the finished clip alone, no photo
      ["1080p upscale (esrgan-upscale-video)", { video: finished, image: undefined }, (job) => followUpJob("upscale", job)],
    ];
    const results: BenchResult[] = [];
    let n = 0;
    for (const [name, extra, followUp] of kinds) {
      const overheads: number[] = [];
      let encodes = 0;
      for (let i = 0; i < JOBS; i++) {
        const workDir = path.join(dir, `j${++n}`);
        await fs.mkdir(workDir);
        const job: EngineJob = {
          mode: "image_to_video",
          workDir,
          image: first,
          params: {},
          resolution: "480P",
          durationSec: 1,
          count: 1,
          seed: n,
          key: `bench:${n}`,
          ...extra,
        };
        const t = performance.now();
        // a follow-up's own steps (the clip's last frame) count as ours, as the worker takes them before submitting
        const sent = followUp ? await followUp(job) : job;
        // an extension's join, which the worker's watermark step makes after the engine (decision 316), is ours too
        const result = await joinContinuation(await engine.result(await engine.submit(sent)));
        const total = performance.now() - t;
        const run = (await one.runs())[0].at(-1)!;
        overheads.push(total - (run.endedAt - run.startedAt));
        if (followUp) encodes = Math.max(encodes, await ourEncodes(result, sent));
      }
      if (followUp) {
        results.push({
          name: `encodes of ours beyond the server's one pass, ${name} (ffprobe: the result's packets are the server's own)`,
          value: encodes,
          unit: "encodes",
          target: "0",
          pass: encodes === 0,
          detail: { jobs: JOBS },
        });
      }
      results.push({
        name: `comfyui engine overhead per ${name} job (submit to stored result, less the server's own time), p50`,
        value: percentile(overheads, 50),
        unit: "ms",
        target: "≤ 50 ms",
        pass: percentile(overheads, 50) <= 50,
        detail: { p90: Math.round(percentile(overheads, 90)), max: Math.round(Math.max(...overheads)), jobs: JOBS },
      });
    }
    return results;
  } finally {
    await engine.close!();
    await one.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
