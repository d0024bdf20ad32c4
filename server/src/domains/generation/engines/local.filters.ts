import type { Resolution } from "./engine.ts";

/** The local engine's ffmpeg side: output sizes, motions, looks and the encoder settings. */

export const FPS = 25;
/** Headroom around the frame that zooms and pans move through. */
export const MARGIN = 1.2;
/** Largest angle (radians) of the sway motion. */
const SWAY = 0.06;

export const MOTIONS = ["zoom_in", "zoom_out", "pan_left", "pan_right", "ken_burns", "rotate", "fade", "parallax"] as const;
export type Motion = (typeof MOTIONS)[number];
export const LOOKS = ["noir", "vintage", "vivid", "cool", "warm", "sketch"] as const;
export type Look = (typeof LOOKS)[number];

export const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Output size for a resolution keeping the source aspect: the short side is 480 or 720. */
export function outputSize(resolution: Resolution, srcWidth: number, srcHeight: number): { width: number; height: number } {
  const short = resolution === "720P" ? 720 : 480;
  const aspect = Math.min(2.4, Math.max(1 / 2.4, srcWidth / srcHeight));
  return aspect >= 1 ? { width: even(short * aspect), height: short } : { width: short, height: even(short / aspect) };
}

export function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
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
export const H264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-movflags", "+faststart", "-r", String(FPS)];
export const AAC = ["-c:a", "aac", "-b:a", "128k", "-ac", "2", "-ar", "44100"];

/**
 * The whole ffmpeg command of an image-to-video render (exported so the benchmark can run the bare command).
 * Input: `still` prepared at MARGIN× the output size; optional `audio` is padded or cut to the duration.
 */
export function imageToVideoArgs(o: { still: string; audio?: string; motion: Motion; width: number; height: number; seconds: number; out: string }): string[] {
  const graph = `[0:v]${motionFilter(o.motion, o.width, o.height, o.seconds)},format=yuv420p,setsar=1[v]`;
  const audio = o.audio ? ["-i", o.audio] : [];
  const audioGraph = o.audio ? `;[1:a]apad,atrim=0:${o.seconds.toFixed(3)}[a]` : "";
  return [
    "-loop",
    "1",
    "-framerate",
    String(FPS),
    "-t",
    o.seconds.toFixed(3),
    "-i",
    o.still,
    ...audio,
    "-filter_complex",
    graph + audioGraph,
    "-map",
    "[v]",
    ...(o.audio ? ["-map", "[a]", ...AAC] : ["-an"]),
    ...H264,
    "-t",
    o.seconds.toFixed(3),
    o.out,
  ];
}
