import sharp from "sharp";
import { ASPECT_RATIOS, type AspectRatio } from "../../../contract/engines.ts";
import { mediaInfo } from "../../../storage/mp4-header.ts";
import type { EngineJob } from "./engine.ts";

/** A binding's output sizing: the short side per resolution (videos), or the side of a square of the same area (images), rounded to `multiple`. */
type Sizing = { by: "short" | "area"; "480P": number; "720P": number; multiple: number };

const round = (n: number, m: number) => Math.max(m, Math.round(n / m) * m);
const RATIO: Record<AspectRatio, number> = { "9:16": 9 / 16, "1:1": 1, "16:9": 16 / 9, "3:4": 3 / 4, "4:3": 4 / 3 };

/** The source's width over height: a photo's from its header, a video's from its MP4 header or ffprobe; undefined when unreadable. */
async function sourceRatio(job: Pick<EngineJob, "image" | "video">): Promise<number | undefined> {
  if (job.image) {
    const meta = await sharp(job.image).metadata();
    return meta.width && meta.height ? meta.width / meta.height : undefined;
  }
  if (job.video) {
    const v = (await mediaInfo(job.video)).video;
    return v?.width && v.height ? v.width / v.height : undefined;
  }
  return undefined;
}

/**
 * Output size: the aspect the person chose, else the source photo's or video's (issue 34: a 4:3 clip no longer comes
 * back square), else square; scaled per the binding's sizing to the nearest size the model takes (its `multiple`).
 */
export async function outputSizeFor(
  b: { sizing: Sizing },
  job: Pick<EngineJob, "aspect" | "resolution" | "image" | "video">,
): Promise<{ width: number; height: number }> {
  const chosen = job.aspect && ASPECT_RATIOS.includes(job.aspect) ? RATIO[job.aspect] : undefined;
  const ratio = Math.min(2.4, Math.max(1 / 2.4, chosen ?? (await sourceRatio(job)) ?? 1));
  const base = b.sizing[job.resolution];
  const m = b.sizing.multiple;
  if (b.sizing.by === "area") return { width: round(base * Math.sqrt(ratio), m), height: round(base / Math.sqrt(ratio), m) };
  return ratio >= 1 ? { width: round(base * ratio, m), height: base } : { width: base, height: round(base / ratio, m) };
}
