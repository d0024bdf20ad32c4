import { z } from "zod";
import { mediaInfo } from "../../../storage/mp4-header.ts";
import type { EngineJob } from "./engine.ts";

/**
 * Motion copied from a video (Wan 2.2 Animate, issue 33, decision 306) is made in windows of the model's own clip
 * length: each next window goes on from the last frames of the one before and reads the reference video from where
 * that one stopped (WanAnimateToVideo's continue_motion and video_frame_offset). The binding names one window's nodes;
 * chainWindows repeats them in the same graph as often as the job's length needs, so one prompt makes the whole clip.
 */
export const chainSchema = z.object({
  /** The window's WanAnimateToVideo. */
  animate: z.string(),
  /** Every node of one window, the WanAnimateToVideo included: repeated per window. */
  nodes: z.array(z.string()).min(1),
  /** The window's decoded frames, which the next window goes on from. */
  decode: z.string(),
  /** The window's new frames (those it did not take over from the window before). */
  fresh: z.string(),
  /** The ImageFromBatch that cuts the joined windows to the job's length. */
  cut: z.string(),
  /** Frames one window makes: the model's clip (4k+1). */
  clip: z.number().int().positive(),
  /** Frames a second where the reference video does not say. */
  fps: z.number().positive(),
});
export type Chain = z.infer<typeof chainSchema>;

type Prompt = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
type Link = [string, number];

/** WanAnimateToVideo's outputs: `video_frame_offset`, where the next window starts reading the videos. */
const NEXT_OFFSET = 5;

const isLink = (v: unknown): v is Link => Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "number";

/** How many windows a clip of `total` frames takes, each after the first adding its clip less the frames it goes on from. */
export const windowsFor = (total: number, clip: number, overlap: number) => (total <= clip ? 1 : 1 + Math.ceil((total - clip) / (clip - overlap)));

/**
 * Sizes the bound prompt to the job's length at the reference video's own frame rate (the output plays at that rate,
 * so the motion keeps its speed): one window of the length needed, else as many full windows as it takes, joined and cut
 * to the exact number of frames. Answers the frame count and windows, for tests.
 */
export async function chainWindows(prompt: Prompt, c: Chain, job: Pick<EngineJob, "video" | "durationSec">) {
  // from the MP4 header where it answers: no process started per job (decision 314)
  const fps = (job.video ? (await mediaInfo(job.video).catch(() => undefined))?.video?.fps : undefined) ?? c.fps;
  const total = Math.max(1, Math.round(job.durationSec * fps));
  const animate = prompt[c.animate].inputs;
  const windows = windowsFor(total, c.clip, Number(animate.continue_motion_max_frames));
  animate.length = windows === 1 ? 4 * Math.ceil((total - 1) / 4) + 1 : c.clip;
  const id = (node: string, k: number) => (k === 0 ? node : `${node}:${k}`);
  let joined: Link = [c.fresh, 0];
  for (let k = 1; k < windows; k++) {
    for (const node of c.nodes) {
      const copy = structuredClone(prompt[node]);
      for (const [name, v] of Object.entries(copy.inputs)) if (isLink(v) && c.nodes.includes(v[0])) copy.inputs[name] = [id(v[0], k), v[1]];
      prompt[id(node, k)] = copy;
    }
    Object.assign(prompt[id(c.animate, k)].inputs, { continue_motion: [id(c.decode, k - 1), 0], video_frame_offset: [id(c.animate, k - 1), NEXT_OFFSET] });
    prompt[`join:${k}`] = { class_type: "ImageBatch", inputs: { image1: joined, image2: [id(c.fresh, k), 0] } };
    joined = [`join:${k}`, 0];
  }
  Object.assign(prompt[c.cut].inputs, { image: joined, length: total });
  return { total, windows };
}
