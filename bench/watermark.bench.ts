import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import sharp from "sharp";
import { createMarker, DEFAULT_MARK } from "../server/src/domains/generation/generation.watermark.ts";
import { faceAnalyser } from "../server/src/faces/faces.ts";
import { ffmpeg, probe } from "../server/src/storage/media-tools.ts";
import { percentile } from "./load-clients.ts";
import type { BenchResult } from "./run.ts";

/** A clip of `seconds` at this size with a tone, encoded as the local engine encodes. */
async function clip(dir: string, width: number, height: number, seconds: number): Promise<string> {
  const out = path.join(dir, `clip-${width}.mp4`);
  await ffmpeg([
    ...["-f", "lavfi", "-i", `testsrc2=size=${width}x${height}:rate=24:duration=${seconds}`, "-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`],
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", out],
  ]);
  return out;
}

/**
 * The watermark on free output (docs/decisions/296), face model warm: an image marked (face check + composite +
 * JPEG), and videos marked in one ffmpeg pass (frames sampled for faces, overlay, one H.264 encode, sound copied),
 * each checked with ffprobe: same size and length, H.264, the sound still there.
 */
export default async function (): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-watermark-"));
  const { mark } = createMarker({ faces: faceAnalyser(), log: pino({ level: "silent" }) });
  const logo = await fs.readFile(DEFAULT_MARK);
  try {
    const image = path.join(dir, "image.jpg");
    await sharp({ create: { width: 1024, height: 1024, channels: 3, background: "#8899aa" } })
      .jpeg({ quality: 90 })
      .toFile(image);
    const poster = path.join(dir, "poster.jpg");
    await sharp(image).resize(512, 512).toFile(poster);
    const result = { main: { path: image, mime: "image/jpeg" }, extra: [], poster: { path: poster, mime: "image/jpeg" }, width: 1024, height: 1024 };
    await mark(result, logo);
    const imageMs: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await mark(result, logo);
      imageMs.push(performance.now() - t);
    }
    const videos: BenchResult[] = [];
    for (const [width, height, seconds] of [
      [640, 480, 5],
      [1280, 720, 10],
    ]) {
      const video = await clip(dir, width, height, seconds);
      const t = performance.now();
      const r = await mark({ ...result, main: { path: video, mime: "video/mp4" }, width, height }, logo);
      const ms = performance.now() - t;
      const p = await probe(r.main.path);
      const same = p.video?.codec === "h264" && p.video.width === width && p.video.height === height && p.audio?.codec === "aac";
      videos.push({
        name: `watermark: a ${seconds} s ${width}x${height} video marked in one pass`,
        value: ms / 1000,
        unit: "s",
        target: `<= ${seconds} s (faster than it plays) and ffprobe unchanged`,
        pass: ms <= seconds * 1000 && same && Math.abs(p.durationSec - seconds) <= 0.1,
        detail: { ffprobe: p, loadAverage: os.loadavg()[0] },
      });
    }
    return [
      {
        name: "watermark: a 1024x1024 image marked (face check, composite, JPEG), p50",
        value: percentile(imageMs, 50),
        unit: "ms",
        target: "<= 300 ms",
        pass: percentile(imageMs, 50) <= 300,
        detail: { p90: Math.round(percentile(imageMs, 90)), loadAverage: os.loadavg()[0] },
      },
      ...videos,
    ];
  } finally {
    await faceAnalyser().close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
