import fs from "node:fs/promises";
import { probe, type ProbeResult } from "./media-tools.ts";

/** ffprobe's name for the MP4 family, so a header read and a probe describe a file alike. */
const MP4_FORMAT = "mov,mp4,m4a,3gp,3g2,mj2";
/** A movie header larger than this is no short clip of ours: the caller asks ffprobe instead. */
const MAX_MOOV_BYTES = 8 * 1024 * 1024;
const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "stbl"]);
const VIDEO_CODECS: Record<string, string> = { avc1: "h264", avc3: "h264", hvc1: "hevc", hev1: "hevc", av01: "av1", vp09: "vp9" };
const AUDIO_CODECS: Record<string, string> = { mp4a: "aac", Opus: "opus" };

interface Box {
  type: string;
  body: Buffer;
}

/** The boxes laid one after another in `buf` (ISO/IEC 14496-12 §4.2: 32-bit size, or 1 and a 64-bit size). */
function boxes(buf: Buffer): Box[] {
  const out: Box[] = [];
  for (let at = 0; at + 8 <= buf.length; ) {
    let size = buf.readUInt32BE(at);
    let head = 8;
    if (size === 1) {
      if (at + 16 > buf.length) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      head = 16;
    } else if (size === 0) size = buf.length - at;
    if (size < head || at + size > buf.length) break;
    out.push({ type: buf.toString("latin1", at + 4, at + 8), body: buf.subarray(at + head, at + size) });
    at += size;
  }
  return out;
}

/** Every box under `buf` whose path of types is `path` (e.g. trak/mdia/hdlr). */
function find(buf: Buffer, path: string[]): Buffer[] {
  const [first, ...rest] = path;
  const here = boxes(buf).filter((b) => b.type === first);
  if (!rest.length) return here.map((b) => b.body);
  return here.filter(() => CONTAINERS.has(first)).flatMap((b) => find(b.body, rest));
}

/**
 * A video track's average frame rate, as ffprobe's avg_frame_rate: its samples over the time their durations add up to
 * (`stts`), in the track's own time scale (`mdhd`); undefined where either box is missing or empty.
 */
function averageRate(trak: Buffer): number | undefined {
  const mdhd = find(trak, ["mdia", "mdhd"])[0];
  const stts = find(trak, ["mdia", "minf", "stbl", "stts"])[0];
  if (!mdhd || !stts || stts.length < 8) return undefined;
  const timescale = mdhd.readUInt32BE(mdhd[0] === 1 ? 20 : 12);
  let samples = 0;
  let ticks = 0;
  for (let i = 0, at = 8; i < stts.readUInt32BE(4) && at + 8 <= stts.length; i++, at += 8) {
    samples += stts.readUInt32BE(at);
    ticks += stts.readUInt32BE(at) * stts.readUInt32BE(at + 4);
  }
  return samples && ticks && timescale ? (samples * timescale) / ticks : undefined;
}

/** Where the top-level `moov` box lies: the file is walked box header by box header, never read whole. */
async function moovOf(file: string): Promise<Buffer | null> {
  const fh = await fs.open(file, "r");
  try {
    const { size: fileSize } = await fh.stat();
    const head = Buffer.alloc(16);
    let sawFtyp = false;
    for (let at = 0; at + 8 <= fileSize; ) {
      await fh.read(head, 0, 16, at);
      let size = head.readUInt32BE(0);
      let headSize = 8;
      const type = head.toString("latin1", 4, 8);
      if (size === 1) {
        size = Number(head.readBigUInt64BE(8));
        headSize = 16;
      } else if (size === 0) size = fileSize - at;
      if (size < headSize) return null;
      if (at === 0 && type !== "ftyp") return null;
      sawFtyp ||= type === "ftyp";
      if (type === "moov") {
        if (!sawFtyp || size > MAX_MOOV_BYTES || at + size > fileSize) return null;
        const body = Buffer.alloc(size - headSize);
        await fh.read(body, 0, body.length, at + headSize);
        return body;
      }
      at += size;
    }
    return null;
  } finally {
    await fh.close();
  }
}

/**
 * An MP4's duration, coded picture size, average frame rate and codecs read from its movie header, as ffprobe reports them, without
 * starting a process (decision 314). Null when the file is not a plain (unfragmented) MP4 whose tracks we know: the
 * caller asks ffprobe then.
 */
export async function mp4Header(file: string): Promise<ProbeResult | null> {
  const moov = await moovOf(file).catch(() => null);
  if (!moov || find(moov, ["mvex"]).length) return null;
  const mvhd = find(moov, ["mvhd"])[0];
  if (!mvhd || mvhd.length < 32) return null;
  const v1 = mvhd[0] === 1;
  const timescale = mvhd.readUInt32BE(v1 ? 20 : 12);
  const duration = v1 ? Number(mvhd.readBigUInt64BE(24)) : mvhd.readUInt32BE(16);
  if (!timescale || !duration) return null;
  const result: ProbeResult = { durationSec: duration / timescale, formatName: MP4_FORMAT };
  for (const trak of find(moov, ["trak"])) {
    const handler = find(trak, ["mdia", "hdlr"])[0]?.toString("latin1", 8, 12);
    const stsd = find(trak, ["mdia", "minf", "stbl", "stsd"])[0];
    if (!stsd || stsd.length < 16) return null;
    const fourcc = stsd.toString("latin1", 12, 16);
    if (handler === "vide" && !result.video) {
      const codec = VIDEO_CODECS[fourcc];
      // a visual sample entry: 8-byte box head, 6 reserved, data reference, 16 bytes of pre-defined and reserved
      if (!codec || stsd.length < 8 + 36) return null;
      result.video = { codec, width: stsd.readUInt16BE(8 + 32), height: stsd.readUInt16BE(8 + 34), fps: averageRate(trak) };
    } else if (handler === "soun" && !result.audio) {
      const codec = AUDIO_CODECS[fourcc];
      if (!codec) return null;
      result.audio = { codec };
    }
  }
  return result.video || result.audio ? result : null;
}

/** A file's media description: from its MP4 header when that answers, else from ffprobe (which throws on no media). */
export async function mediaInfo(file: string): Promise<ProbeResult> {
  return (await mp4Header(file)) ?? probe(file);
}
