import fs from "node:fs/promises";
import path from "node:path";
import { ffmpeg } from "../../storage/media-tools.ts";

/** Frames taken from a video, spread evenly over it (clips are 4-30 s): one about every 5 s, at least 3. */
export const VIDEO_SAMPLE_FRAMES = { min: 3, max: 6, everySec: 5 } as const;

/**
 * Samples a video's frames as JPEGs at the face model's working size (640 px), for face screening and the blocklist's
 * hashes alike: the same sampling for a taken-down video and a re-upload of it gives the same frames.
 */
export async function sampleFrames(file: string, lengthSec: number, workDir: string): Promise<Buffer[]> {
  const count = Math.max(VIDEO_SAMPLE_FRAMES.min, Math.min(VIDEO_SAMPLE_FRAMES.max, Math.ceil(lengthSec / VIDEO_SAMPLE_FRAMES.everySec)));
  const dir = await fs.mkdtemp(path.join(workDir, "frames-"));
  // fps = count / length spreads the frames evenly over the clip
  await ffmpeg([
    "-i",
    file,
    "-vf",
    `fps=${(count / Math.max(lengthSec, 0.1)).toFixed(4)},scale=640:640:force_original_aspect_ratio=decrease`,
    "-frames:v",
    String(count),
    "-q:v",
    "3",
    path.join(dir, "f%02d.jpg"),
  ]);
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith(".jpg")).sort();
  return Promise.all(names.map((n) => fs.readFile(path.join(dir, n))));
}
