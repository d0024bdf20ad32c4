import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";

const run = promisify(execFile);

/** Real media files for the upload journeys, made once per test file in a temp directory. */
export async function mediaDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), "reverie-consumer-media-"));
}

/** A portrait-shaped photo: a gradient with a bright disc, enough structure for motion templates to show. */
export async function photo(dir: string, name = "portrait.jpg"): Promise<string> {
  const file = path.join(dir, name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#4338ca"/><stop offset="1" stop-color="#db2777"/></linearGradient></defs><rect width="900" height="1200" fill="url(#g)"/><circle cx="450" cy="500" r="220" fill="#fde68a"/></svg>`;
  await sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toFile(file);
  return file;
}

/** A WebM video (VP8, which Chromium always decodes) of the given length. */
export async function video(dir: string, seconds: number): Promise<string> {
  const file = path.join(dir, `clip-${seconds}s.webm`);
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc=size=320x240:rate=15:duration=${seconds}`,
    "-c:v",
    "libvpx",
    "-b:v",
    "200k",
    "-deadline",
    "realtime",
    file,
  ]);
  return file;
}

/** A small mono WAV of the given length. */
export async function audio(dir: string, seconds: number): Promise<string> {
  const file = path.join(dir, `tone-${seconds}s.wav`);
  await run("ffmpeg", [
    "-v",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=440:sample_rate=8000:duration=${seconds}`,
    "-ac",
    "1",
    "-c:a",
    "pcm_u8",
    file,
  ]);
  return file;
}

export async function bytesFile(dir: string, name: string, size: number, head = Buffer.alloc(0)): Promise<string> {
  const file = path.join(dir, name);
  const buf = Buffer.alloc(size, 7);
  head.copy(buf);
  await fs.writeFile(file, buf);
  return file;
}
