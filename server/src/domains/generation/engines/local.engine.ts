import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import { GENERATION_MODES } from "../../../contract/generation.ts";
import { ffmpeg, probe } from "../../../storage/media-tools.ts";
import { EngineError, type EngineFile, type EngineJob, type EngineProgress, type EngineResult, type EngineStatus, type GenerationEngine, type Resolution } from "./engine.ts";

/**
 * The embedded default engine: real media rendered on the CPU with ffmpeg and sharp. It is not AI — its results
 * are labelled "local draft" — but it exercises the whole pipeline (queue, credits, storage, progress) end to end.
 */

export const FPS = 25;
/** Headroom around the frame that zooms and pans move through. */
const MARGIN = 1.2;
/** Largest angle (radians) of the sway motion. */
const SWAY = 0.06;

export const MOTIONS = ["zoom_in", "zoom_out", "pan_left", "pan_right", "ken_burns", "rotate", "fade", "parallax"] as const;
export type Motion = (typeof MOTIONS)[number];
export const LOOKS = ["noir", "vintage", "vivid", "cool", "warm", "sketch"] as const;
export type Look = (typeof LOOKS)[number];
export const STYLES = ["aurora", "bokeh", "waves", "mosaic"] as const;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Output size for a resolution keeping the source aspect: the short side is 480 or 720. */
export function outputSize(resolution: Resolution, srcWidth: number, srcHeight: number): { width: number; height: number } {
  const short = resolution === "720P" ? 720 : 480;
  const aspect = Math.min(2.4, Math.max(1 / 2.4, srcWidth / srcHeight));
  return aspect >= 1 ? { width: even(short * aspect), height: short } : { width: short, height: even(short / aspect) };
}

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** The ffmpeg filter turning a still (already MARGIN× the output size) into `seconds` of motion at W×H. */
export function motionFilter(motion: Motion, w: number, h: number, seconds: number): string {
  const frames = Math.max(1, Math.round(seconds * FPS));
  const n = `${frames - 1 || 1}`;
  const zp = (z: string, x: string, y: string) => `zoompan=z='${z}':x='${x}':y='${y}':d=1:s=${w}x${h}:fps=${FPS}`;
  const centre = ["(iw-iw/zoom)/2", "(ih-ih/zoom)/2"] as const;
  const fadeOut = Math.max(0, seconds - 0.6).toFixed(2);
  switch (motion) {
    case "zoom_in":
      return zp(`1+${MARGIN - 1}*on/${n}`, ...centre);
    case "zoom_out":
      return zp(`${MARGIN}-${MARGIN - 1}*on/${n}`, ...centre);
    case "pan_left":
      return zp(`${MARGIN}`, `(iw-iw/zoom)*(1-on/${n})`, centre[1]);
    case "pan_right":
      return zp(`${MARGIN}`, `(iw-iw/zoom)*on/${n}`, centre[1]);
    case "ken_burns":
      return zp(`1.05+0.13*on/${n}`, `(iw-iw/zoom)*on/${n}`, `(ih-ih/zoom)*(1-on/${n})`);
    case "rotate": {
      // a frame turned by a shows its corners unless it is scaled by cos a + (long/short side) sin a: render that much
      // larger, turn, then crop the middle, so no edge ever enters the picture
      const cover = (Math.cos(SWAY) + (Math.max(w, h) / Math.min(w, h)) * Math.sin(SWAY)) * 1.01;
      const big = zp("1.05", ...centre).replace(`s=${w}x${h}`, `s=${even(w * cover)}x${even(h * cover)}`);
      return `${big},rotate=a='${SWAY}*sin(2*PI*t/${seconds.toFixed(2)})':ow=iw:oh=ih,crop=${w}:${h}`;
    }
    case "fade":
      return `${zp(`1.05+0.1*on/${n}`, ...centre)},fade=t=in:st=0:d=0.6,fade=t=out:st=${fadeOut}:d=0.6`;
    case "parallax": {
      // two layers moving at different speeds: a blurred, darker backdrop drifting right and the sharp subject drifting left
      const fw = even(w * 0.82);
      const fh = even(h * 0.82);
      return (
        `split=2[bg][fg];` +
        `[bg]${zp(`${MARGIN}`, `(iw-iw/zoom)*on/${n}`, centre[1])},boxblur=12:2,eq=brightness=-0.12[back];` +
        `[fg]${zp(`1.08`, `(iw-iw/zoom)*(1-on/${n})`, centre[1]).replace(`s=${w}x${h}`, `s=${fw}x${fh}`)}[front];` +
        `[back][front]overlay=x='(W-w)/2-${even(w * 0.03)}*(2*n/${n}-1)':y='(H-h)/2'`
      );
    }
  }
}

/** The ffmpeg filter giving a video one of the looks. */
export function lookFilter(look: Look): string {
  switch (look) {
    case "noir":
      return "hue=s=0,eq=contrast=1.35:brightness=-0.03,vignette=PI/4";
    case "vintage":
      return "curves=preset=vintage,noise=alls=12:allf=t,vignette=PI/5";
    case "vivid":
      return "eq=saturation=1.7:contrast=1.12";
    case "cool":
      return "colorbalance=bs=0.25:bm=0.15:rs=-0.12:rm=-0.08,eq=saturation=1.1";
    case "warm":
      return "colorbalance=rs=0.22:rm=0.12:bs=-0.15:bm=-0.1,eq=saturation=1.15";
    case "sketch":
      return "edgedetect=low=0.08:high=0.25:mode=colormix,eq=contrast=1.4";
  }
}

/** Quality-targeted H.264: at CRF 23 slow moves over smooth skin and sky banded at about 100 kbit/s; 18 does not. */
const H264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-r", String(FPS)];
const AAC = ["-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "44100"];

/**
 * The whole ffmpeg command of an image-to-video render (exported so the benchmark can run the bare command).
 * Input: `still` prepared at MARGIN× the output size; optional `audio` is padded or cut to the duration.
 */
export function imageToVideoArgs(o: { still: string; audio?: string; motion: Motion; width: number; height: number; seconds: number; out: string }): string[] {
  const graph = `[0:v]${motionFilter(o.motion, o.width, o.height, o.seconds)},format=yuv420p,setsar=1[v]`;
  const audio = o.audio ? ["-i", o.audio] : [];
  const audioGraph = o.audio ? `;[1:a]apad,atrim=0:${o.seconds.toFixed(3)}[a]` : "";
  return [
    "-loop", "1", "-framerate", String(FPS), "-t", o.seconds.toFixed(3), "-i", o.still, ...audio,
    "-filter_complex", graph + audioGraph,
    "-map", "[v]", ...(o.audio ? ["-map", "[a]", ...AAC] : ["-an"]),
    ...H264, "-t", o.seconds.toFixed(3), o.out,
  ];
}

/** Deterministic 32-bit PRNG (mulberry32) seeded from text, so a prompt always draws the same draft. */
export function seededRandom(seedText: string): () => number {
  let a = crypto.createHash("sha256").update(seedText).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PALETTE_WORDS: [RegExp, number][] = [
  [/sunset|sunrise|fire|warm|orange|autumn|desert/, 24],
  [/ocean|sea|sky|blue|water|rain|ice|winter/, 205],
  [/forest|green|nature|jungle|spring|garden/, 125],
  [/night|space|galaxy|dark|star|moon|purple|neon/, 265],
  [/rose|love|pink|flower|romantic|cherry/, 330],
  [/gold|sun|yellow|summer|beach/, 48],
];

/** Gaussian blur (in output pixels) of the soft styles, applied by sharp: librsvg's SVG filters are far slower. */
export const STYLE_BLUR: Record<string, number> = { aurora: 40, bokeh: 18 };

/** A prompt-seeded procedural picture (SVG for sharp to render): colours from the prompt's words, layout from its hash. */
export function draftSvg(prompt: string, seed: string, width: number, height: number, style: string, renderScale = 1): string {
  const rnd = seededRandom(`${prompt}\u0000${seed}`);
  const lower = prompt.toLowerCase();
  const baseHue = PALETTE_WORDS.find(([re]) => re.test(lower))?.[1] ?? Math.floor(rnd() * 360);
  const hue = (d: number) => Math.round((baseHue + d + 360) % 360);
  const shapes: string[] = [];
  const count = 14 + Math.floor(rnd() * 14);
  for (let i = 0; i < count; i++) {
    const x = (rnd() * width).toFixed(1);
    const y = (rnd() * height).toFixed(1);
    const r = (Math.min(width, height) * (0.05 + rnd() * 0.3)).toFixed(1);
    const fill = `hsl(${hue(rnd() * 80 - 40)},${60 + Math.floor(rnd() * 35)}%,${35 + Math.floor(rnd() * 45)}%)`;
    const opacity = (0.15 + rnd() * 0.5).toFixed(2);
    if (style === "mosaic") {
      shapes.push(`<rect x="${x}" y="${y}" width="${r}" height="${r}" transform="rotate(${Math.floor(rnd() * 90)} ${x} ${y})" fill="${fill}" opacity="${opacity}"/>`);
    } else if (style === "waves") {
      const amp = (rnd() * height * 0.15).toFixed(1);
      shapes.push(`<path d="M0 ${y} Q ${width / 4} ${Number(y) - Number(amp)} ${width / 2} ${y} T ${width} ${y} L ${width} ${height} L 0 ${height} Z" fill="${fill}" opacity="${(Number(opacity) * 0.6).toFixed(2)}"/>`);
    } else {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}" opacity="${opacity}"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * renderScale)}" height="${Math.round(height * renderScale)}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="${rnd().toFixed(2)}" y2="1">
<stop offset="0" stop-color="hsl(${hue(-30)},70%,18%)"/><stop offset="0.55" stop-color="hsl(${hue(0)},65%,42%)"/><stop offset="1" stop-color="hsl(${hue(35)},75%,70%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/>${shapes.join("")}</svg>`;
}

const ASPECTS: Record<string, [number, number]> = { "1:1": [1024, 1024], "3:4": [768, 1024], "4:3": [1024, 768], "9:16": [576, 1024], "16:9": [1024, 576] };

interface Running {
  percent: number;
  state: EngineProgress["state"];
  error?: string;
  controller: AbortController;
  done: Promise<EngineResult>;
}

export function createLocalEngine(): GenerationEngine {
  const jobs = new Map<string, Running>();

  /** The source photo, scaled and centre-cropped to MARGIN× the output size, and a poster at the output size. */
  async function prepareStill(image: string, resolution: Resolution, workDir: string) {
    const meta = await sharp(image).metadata();
    const { width, height } = outputSize(resolution, meta.width ?? 1, meta.height ?? 1);
    const still = path.join(workDir, "still.png");
    await sharp(image).resize(even(width * MARGIN), even(height * MARGIN), { fit: "cover" }).png({ compressionLevel: 1 }).toFile(still);
    return { still, width, height };
  }

  async function posterOf(image: string, width: number, height: number, out: string): Promise<EngineFile> {
    await sharp(image).resize(width, height, { fit: "cover" }).jpeg({ quality: 85 }).toFile(out);
    return { path: out, mime: "image/jpeg" };
  }

  async function drawDraft(job: EngineJob, index: number): Promise<{ file: string; width: number; height: number }> {
    const [width, height] = ASPECTS[String(job.params.aspect ?? "1:1")] ?? ASPECTS["1:1"];
    const style = pick(job.params.style, STYLES, STYLES[Math.floor(seededRandom(job.prompt ?? job.seed)() * STYLES.length)]);
    const file = path.join(job.workDir, `draft-${index}.png`);
    // soft styles are drawn and blurred at a quarter of the size, then scaled up: the same look at a fraction of the cost
    const blur = STYLE_BLUR[style];
    const scale = blur ? 0.25 : 1;
    const drawn = sharp(Buffer.from(draftSvg(job.prompt ?? "", `${job.seed}:${index}`, width, height, style, scale)));
    let img = sharp(await (blur ? drawn.blur(blur * scale) : drawn).resize(width, height).png().toBuffer());
    if (job.image) {
      // a reference photo tints the draft: blend it under the procedural layer
      const ref = await sharp(job.image).resize(width, height, { fit: "cover" }).toBuffer();
      img = sharp(ref).composite([{ input: await img.png().toBuffer(), blend: "soft-light" }]);
    }
    await img.png().toFile(file);
    return { file, width, height };
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
        await ffmpeg(["-stream_loop", "-1", "-i", job.video, ...audio, "-filter_complex", graph, "-map", "[v]", ...audioMap, ...H264, "-t", seconds.toFixed(3), out], { signal, totalSec: seconds, onProgress: report });
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
      const ok = await ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=16x16:d=0.04", "-f", "null", "-"]).then(
        () => true,
        () => false,
      );
      return {
        engine: "local",
        label: "local draft",
        available: ok,
        ai: false,
        modes: [...GENERATION_MODES],
        message: ok
          ? "No AI engine is configured: results are local drafts rendered on the CPU (motion templates, looks and procedural pictures), not AI generations."
          : "No AI engine is configured and ffmpeg is not available: generation cannot run.",
      };
    },
    async submit(job) {
      const id = crypto.randomUUID();
      const controller = new AbortController();
      const running: Running = { percent: 0, state: "running", controller, done: Promise.resolve() as unknown as Promise<EngineResult> };
      running.done = render(job, (f) => (running.percent = Math.max(running.percent, Math.min(99, Math.floor(f * 100)))), controller.signal).then(
        (r) => {
          running.state = "done";
          running.percent = 100;
          return r;
        },
        (err: Error) => {
          running.state = controller.signal.aborted ? "cancelled" : "failed";
          running.error = err.message;
          throw err instanceof EngineError ? err : new EngineError(err.message);
        },
      );
      running.done.catch(() => undefined);
      jobs.set(id, running);
      return id;
    },
    async progress(id) {
      const r = jobs.get(id);
      if (!r) throw new EngineError(`unknown job ${id}`);
      return { percent: r.percent, state: r.state, error: r.error };
    },
    async result(id) {
      const r = jobs.get(id);
      if (!r) throw new EngineError(`unknown job ${id}`);
      try {
        return await r.done;
      } finally {
        jobs.delete(id);
      }
    },
    async cancel(id) {
      jobs.get(id)?.controller.abort(new EngineError("cancelled"));
    },
  };
}
