import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { createSlots } from "../../db/slots.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { IMAGE_TYPES, UPLOAD_LIMITS } from "../../contract/uploads.ts";
import { bmpSize, bmpToPng } from "../../storage/bmp.ts";
import { measuredDurationSec, MediaToolError, probe, sniff, type ProbeResult, type Sniffed } from "../../storage/media-tools.ts";

/** SPEC.md §5 / §9 limits. */
export const LIMITS = {
  ...UPLOAD_LIMITS,
  /** Decompression-bomb guard: 50 megapixels decodes in well under a second and ~200 MB. */
  imagePixels: 50_000_000,
  /** Stored images are scaled into this box; renders never need more. */
  imageMaxSide: 2048,
  thumbSide: 360,
} as const;

export interface IncomingFile {
  buffer: Buffer;
  size: number;
}

/** The accepted image formats under the names the signature sniffer gives them (it calls jpg "jpeg"). */
export const IMAGE_KINDS = new Set<string>(IMAGE_TYPES.map((t) => (t === "jpg" ? "jpeg" : t)));
export const AUDIO_KINDS = new Set(["mp3", "wav", "ogg", "flac", "aac", "isobmff", "ebml"]);
export const VIDEO_KINDS = new Set(["isobmff", "ebml"]);

/** Size, magic bytes and ffprobe checks shared by audio and video; `fn` gets the source written to a temp dir. */
export async function withProbedMedia<T>(
  file: IncomingFile,
  rule: { maxBytes: number; tooBig: string; kinds: Set<string>; unreadable: string },
  fn: (dir: string, src: string, info: ProbeResult, kind: Sniffed) => Promise<T>,
): Promise<T> {
  if (file.size > rule.maxBytes) throw HttpError.badRequest(rule.tooBig);
  const kind = sniff(file.buffer);
  if (!kind || !rule.kinds.has(kind)) throw HttpError.badRequest(rule.unreadable);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-upload-"));
  try {
    const src = path.join(dir, "source");
    await fs.writeFile(src, file.buffer);
    const unreadable = (err: unknown) => {
      if (err instanceof MediaToolError) throw HttpError.badRequest(rule.unreadable);
      throw err;
    };
    const [header, durationSec] = await Promise.all([probe(src).catch(unreadable), measuredDurationSec(src).catch(unreadable)]);
    // the length is measured from the packets, never taken from the header's claim (docs/decisions/073)
    return await fn(dir, src, { ...header, durationSec }, kind);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Images decoded at once per process: one core fewer than the machine has, so several large uploads never take every
 * core from the thread answering requests (docs/decisions/073). The others wait, holding only their upload buffer.
 */
const imageSlot = createSlots(os.availableParallelism() - 1);

/** Decodes an uploaded image by content and returns it re-encoded without metadata (EXIF, GPS), plus a thumbnail. */
export function normaliseImage(buf: Buffer): Promise<{ data: Buffer; thumb: Buffer; width: number; height: number; ext: "jpg" | "png"; mime: string }> {
  return imageSlot(() => decodeAndReencode(buf));
}

async function decodeAndReencode(buf: Buffer): Promise<{ data: Buffer; thumb: Buffer; width: number; height: number; ext: "jpg" | "png"; mime: string }> {
  const kind = sniff(buf);
  if (!kind || !IMAGE_KINDS.has(kind)) throw HttpError.badRequest(MSG.imageFormat);
  let input: Sharp;
  try {
    if (kind === "bmp") {
      // pixel limit from the header, before anything is decoded
      const { width, height } = bmpSize(buf);
      if (width * height > LIMITS.imagePixels) throw HttpError.badRequest(MSG.imageTooManyPixels);
      input = sharp(await bmpToPng(buf, LIMITS.imageMaxSide), { failOn: "error" });
    } else {
      const meta = await sharp(buf).metadata();
      if (!meta.width || !meta.height) throw HttpError.badRequest(MSG.imageUnreadable);
      if (meta.width * meta.height > LIMITS.imagePixels) throw HttpError.badRequest(MSG.imageTooManyPixels);
      input = sharp(buf, { limitInputPixels: LIMITS.imagePixels, failOn: "error" }).rotate();
    }
    const resized = input.resize({ width: LIMITS.imageMaxSide, height: LIMITS.imageMaxSide, fit: "inside", withoutEnlargement: true });
    const { data: pixels, info } = await resized.raw().toBuffer({ resolveWithObject: true });
    const hasAlpha = info.channels === 2 || info.channels === 4;
    // a fresh pipeline per output over the same pixels: sharp's clone() structuredClones its options, raw pixels
    // included (tens of MB), on the API's thread, which held /api/health for 200+ ms per upload
    const decoded = () => sharp(pixels, { raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } });
    const data = hasAlpha ? await decoded().png().toBuffer() : await decoded().jpeg({ quality: 90, mozjpeg: false }).toBuffer();
    const thumb = await decoded()
      .flatten({ background: "#ffffff" })
      .resize({ width: LIMITS.thumbSide, height: LIMITS.thumbSide, fit: "inside" })
      .jpeg({ quality: 80 })
      .toBuffer();
    return { data, thumb, width: info.width, height: info.height, ext: hasAlpha ? "png" : "jpg", mime: hasAlpha ? "image/png" : "image/jpeg" };
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw HttpError.badRequest(MSG.imageTooManyPixels);
    throw HttpError.badRequest(MSG.imageUnreadable);
  }
}

/** Every uploaded image's checks (present, at most 10 MB, decodable by content within the pixel limit), answering it re-encoded. */
export async function checkedImage(file: IncomingFile | undefined) {
  if (!file) throw HttpError.badRequest(MSG.fileRequired);
  if (file.size > LIMITS.imageBytes) throw HttpError.badRequest(MSG.imageTooBig);
  return normaliseImage(file.buffer);
}
