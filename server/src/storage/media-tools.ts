import { spawn } from "node:child_process";
import os from "node:os";
import { mediaToolPath, type MediaTool } from "./media-binaries.ts";

/** What the first bytes of a file say it is; extensions and client MIME types are never trusted. */
export type Sniffed = "png" | "jpeg" | "webp" | "bmp" | "gif" | "isobmff" | "ebml" | "mp3" | "wav" | "ogg" | "flac" | "aac";

export function sniff(buf: Buffer): Sniffed | null {
  const at = (offset: number, bytes: number[]) => bytes.every((b, i) => buf[offset + i] === b);
  const ascii = (offset: number, s: string) => buf.subarray(offset, offset + s.length).toString("latin1") === s;
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (at(0, [0xff, 0xd8, 0xff])) return "jpeg";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "webp";
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "wav";
  if (ascii(0, "BM") && buf.length > 26) return "bmp";
  if (ascii(0, "GIF8")) return "gif";
  if (ascii(4, "ftyp")) return "isobmff";
  if (at(0, [0x1a, 0x45, 0xdf, 0xa3])) return "ebml";
  if (ascii(0, "ID3") || (buf[0] === 0xff && (buf[1] & 0xe0) === 0xe0 && (buf[1] & 0x06) !== 0)) return "mp3";
  if (ascii(0, "OggS")) return "ogg";
  if (ascii(0, "fLaC")) return "flac";
  if (buf[0] === 0xff && (buf[1] & 0xf6) === 0xf0) return "aac";
  return null;
}

export interface ProbeResult {
  durationSec: number;
  formatName: string;
  /**
   * `fps`: frames a second by the stream's average rate; undefined where the file does not say. `rate`: its base rate
   * as ffprobe writes it ("16/1"), exact where the average of a short clip is not: a join compares clips by it.
   */
  video?: { codec: string; width: number; height: number; pixFmt?: string; fps?: number; rate?: string };
  audio?: { codec: string };
}

export class MediaToolError extends Error {}

/** Nice value of ffmpeg/ffprobe children: below the API's own, so decoding and rendering never starve request handling. */
const CHILD_PRIORITY = 10;

function run(tool: MediaTool, args: string[], opts: { signal?: AbortSignal; onStderrLine?: (line: string) => void; stdout?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(mediaToolPath(tool), args, { stdio: ["ignore", "pipe", "pipe"], signal: opts.signal });
    // media work yields the CPU to the process answering requests (docs/decisions/073)
    if (child.pid) {
      try {
        os.setPriority(child.pid, CHILD_PRIORITY);
      } catch {
        // not permitted here: it runs at normal priority
      }
    }
    let out = "";
    let errTail = "";
    child.stdout.on("data", (d: Buffer) => {
      if (opts.stdout !== false) out += d.toString();
    });
    let partial = "";
    child.stderr.on("data", (d: Buffer) => {
      const text = d.toString();
      errTail = (errTail + text).slice(-2000);
      if (opts.onStderrLine) {
        const lines = (partial + text).split(/\r|\n/);
        partial = lines.pop() ?? "";
        lines.forEach(opts.onStderrLine);
      }
    });
    // an abort kills a running process: its "close" settles the promise, so nobody removes the work folder while the
    // process still writes into it
    child.on("error", (err) => {
      if (err.name !== "AbortError" || !child.pid) reject(err.name === "AbortError" ? err : new MediaToolError(`${tool} failed to start: ${err.message}`));
    });
    child.on("close", (code, signal) => {
      if (code === 0) resolve(out);
      else if (opts.signal?.aborted) reject(opts.signal.reason instanceof Error ? opts.signal.reason : new MediaToolError(`${tool} aborted`));
      else reject(new MediaToolError(`${tool} exited with ${code ?? signal}: ${errTail.trim().split("\n").slice(-3).join(" | ")}`));
    });
  });
}

/** ffprobe's "30000/1001" as a number; undefined for "0/0" (not known). */
function frameRate(r: string | undefined): number | undefined {
  const [n, d] = (r ?? "").split("/").map(Number);
  const fps = d ? n / d : n;
  return Number.isFinite(fps) && fps > 0 ? fps : undefined;
}

/** ffprobe's view of a file; throws MediaToolError when it cannot be parsed as media. */
export async function probe(file: string): Promise<ProbeResult> {
  const json = JSON.parse(await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file])) as {
    format?: { duration?: string; format_name?: string };
    streams?: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
      duration?: string;
      avg_frame_rate?: string;
      r_frame_rate?: string;
    }[];
  };
  const v = json.streams?.find((s) => s.codec_type === "video");
  const a = json.streams?.find((s) => s.codec_type === "audio");
  const duration = Number(json.format?.duration ?? v?.duration ?? a?.duration);
  if (!json.format || (!v && !a)) throw new MediaToolError("no media streams");
  return {
    durationSec: Number.isFinite(duration) ? duration : 0,
    formatName: json.format.format_name ?? "",
    video: v
      ? { codec: v.codec_name, width: v.width ?? 0, height: v.height ?? 0, pixFmt: v.pix_fmt, fps: frameRate(v.avg_frame_rate), rate: v.r_frame_rate }
      : undefined,
    audio: a ? { codec: a.codec_name } : undefined,
  };
}

/**
 * How long the media really plays, from its packets' timestamps (first presentation to last packet's end) rather than
 * from the duration fields of its headers, which a file can set to anything. No frame is decoded. The longest of the
 * audio and video streams counts, as that is how long the stored file plays.
 */
export async function measuredDurationSec(file: string): Promise<number> {
  const json = JSON.parse(
    await run("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "stream=index,codec_type:packet=stream_index,pts_time,dts_time,duration_time",
      "-print_format",
      "json",
      file,
    ]),
  ) as {
    streams?: { index: number; codec_type: string }[];
    packets?: { stream_index: number; pts_time?: string; dts_time?: string; duration_time?: string }[];
  };
  const media = new Set((json.streams ?? []).filter((s) => s.codec_type === "video" || s.codec_type === "audio").map((s) => s.index));
  const span = new Map<number, { start: number; end: number }>();
  for (const p of json.packets ?? []) {
    if (!media.has(p.stream_index)) continue;
    const at = Number(p.pts_time ?? p.dts_time);
    if (!Number.isFinite(at)) continue;
    const end = at + (Number(p.duration_time) || 0);
    const s = span.get(p.stream_index);
    if (!s) span.set(p.stream_index, { start: at, end });
    else {
      s.start = Math.min(s.start, at);
      s.end = Math.max(s.end, end);
    }
  }
  if (!span.size) throw new MediaToolError("no media packets");
  return Math.max(...[...span.values()].map((s) => s.end - s.start));
}

/**
 * Runs ffmpeg; `totalSec` lets it report progress (0..1) from the `time=` field ffmpeg prints as it encodes.
 * Aborting the signal kills the process.
 */
export async function ffmpeg(args: string[], opts: { signal?: AbortSignal; totalSec?: number; onProgress?: (fraction: number) => void } = {}): Promise<void> {
  const { totalSec, onProgress } = opts;
  await run("ffmpeg", ["-hide_banner", "-nostdin", "-y", ...args], {
    signal: opts.signal,
    stdout: false,
    onStderrLine:
      totalSec && onProgress
        ? (line) => {
            const m = /time=(\d+):(\d+):(\d+(?:\.\d+)?)/.exec(line);
            if (m) onProgress(Math.min(1, (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) / totalSec));
          }
        : undefined,
  });
}
