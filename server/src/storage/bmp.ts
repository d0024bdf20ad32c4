import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ffmpeg } from "./media-tools.ts";

/**
 * libvips (and so sharp) has no BMP loader. A BMP is decoded by ffmpeg's BMP decoder (every depth, RLE included) in a
 * child process, never on the thread that answers requests (docs/decisions/073). Callers check the header's
 * dimensions against the pixel limit first, so nothing oversized is ever decoded.
 */
export class BmpError extends Error {}

/** The dimensions a BMP's header declares (a negative height means top-down rows). */
export function bmpSize(buf: Buffer): { width: number; height: number } {
  if (buf.length < 54 || buf.toString("latin1", 0, 2) !== "BM") throw new BmpError("not a BMP");
  const width = buf.readInt32LE(18);
  const height = Math.abs(buf.readInt32LE(22));
  if (width <= 0 || height <= 0) throw new BmpError("bad dimensions");
  return { width, height };
}

/** The BMP as a PNG scaled to fit a `maxSide` box (never enlarged), made by ffmpeg in a child process. */
export async function bmpToPng(buf: Buffer, maxSide: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bmp-"));
  try {
    const src = path.join(dir, "source.bmp");
    const out = path.join(dir, "decoded.png");
    await fs.writeFile(src, buf);
    const box = `scale=w='min(iw,${maxSide})':h='min(ih,${maxSide})':force_original_aspect_ratio=decrease:flags=area`;
    // bmp_pipe: the file is read as a BMP and nothing else, whatever ffmpeg's probing would make of it
    await ffmpeg(["-v", "error", "-f", "bmp_pipe", "-i", src, "-frames:v", "1", "-vf", box, "-compression_level", "1", out]).catch(() => {
      throw new BmpError("unreadable BMP");
    });
    return await fs.readFile(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
