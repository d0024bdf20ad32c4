import { execFile } from "node:child_process";
import { promisify } from "node:util";
import sharp from "sharp";
import { expect } from "vitest";
import { mediaToolPath } from "../server/src/storage/media-binaries.ts";
import { ffmpeg } from "../server/src/storage/media-tools.ts";

/** Comparing media in tests: pixels region by region, a video's packets and its decoded pictures (decisions 296, 307). */

const run = promisify(execFile);

/** A region of a picture in pixels, as the watermark's placement gives it. */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Mean absolute difference of the RGB pixels of two pictures of one size, inside `box` or outside it. */
export async function difference(a: string, b: string, box: Box, where: "inside" | "outside"): Promise<number> {
  const raw = (f: string) => sharp(f).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const [x, y] = await Promise.all([raw(a), raw(b)]);
  expect([x.info.width, x.info.height]).toEqual([y.info.width, y.info.height]);
  let sum = 0;
  let n = 0;
  for (let row = 0; row < x.info.height; row++) {
    for (let col = 0; col < x.info.width; col++) {
      const inBox = col >= box.left && col < box.left + box.width && row >= box.top && row < box.top + box.height;
      if (inBox !== (where === "inside")) continue;
      const i = (row * x.info.width + col) * 3;
      for (let c = 0; c < 3; c++) sum += Math.abs(x.data[i + c] - y.data[i + c]);
      n += 3;
    }
  }
  return sum / n;
}

/** Each video packet's MD5, by ffprobe: equal lists are the same encoded pictures, not a re-encode of them. */
export async function packets(file: string): Promise<string[]> {
  const { stdout } = await run(mediaToolPath("ffprobe"), [
    ...["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=data_hash", "-show_data_hash", "MD5", "-of", "csv=p=0", file],
  ]);
  return stdout.trim().split("\n");
}

/** Each decoded picture's MD5: equal lists are the same pictures, whatever their timestamps. */
export async function pictures(file: string): Promise<string[]> {
  const { stdout } = await run(mediaToolPath("ffmpeg"), ["-v", "error", "-i", file, "-map", "0:v", "-f", "framemd5", "-"], { maxBuffer: 16 << 20 });
  return stdout
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(",").at(-1)!.trim());
}

/** The video's picture number `n` (from 0) as PNG: by its place, not its time, so two files' pictures line up exactly. */
export async function pictureAt(video: string, n: number): Promise<string> {
  const out = `${video}-${n}.png`;
  await ffmpeg(["-i", video, "-vf", `select=eq(n\\,${n})`, "-vsync", "0", "-frames:v", "1", out]);
  return out;
}
