/**
 * libvips (and so sharp) has no BMP loader, so uncompressed BMPs (1/4/8-bit palette, 24-bit, 32-bit) are decoded
 * here into raw RGB(A) for sharp to re-encode. Dimensions are checked before any pixel buffer is allocated.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

export class BmpError extends Error {}

export function bmpSize(buf: Buffer): { width: number; height: number } {
  if (buf.length < 54 || buf.toString("latin1", 0, 2) !== "BM") throw new BmpError("not a BMP");
  return { width: buf.readInt32LE(18), height: Math.abs(buf.readInt32LE(22)) };
}

export function decodeBmp(buf: Buffer, maxPixels: number): RawImage {
  const { width, height } = bmpSize(buf);
  const dataOffset = buf.readUInt32LE(10);
  const headerSize = buf.readUInt32LE(14);
  const topDown = buf.readInt32LE(22) < 0;
  const bpp = buf.readUInt16LE(28);
  const compression = buf.readUInt32LE(30);
  if (width <= 0 || height <= 0) throw new BmpError("bad dimensions");
  if (width * height > maxPixels) throw new BmpError("too many pixels");
  const bitfields = compression === 3 || compression === 6;
  if (compression !== 0 && !(bitfields && bpp === 32)) throw new BmpError("compressed BMP");
  if (![1, 4, 8, 24, 32].includes(bpp)) throw new BmpError(`unsupported depth ${bpp}`);
  const stride = Math.ceil((width * bpp) / 32) * 4;
  if (dataOffset + stride * height > buf.length) throw new BmpError("truncated");
  const paletteSize = bpp <= 8 ? buf.readUInt32LE(46) || 1 << bpp : 0;
  const paletteAt = 14 + headerSize;
  const channels = bpp === 32 ? 4 : 3;
  const out = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (topDown ? y : height - 1 - y) * stride;
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * channels;
      if (bpp >= 24) {
        const p = row + x * (bpp / 8);
        out[o] = buf[p + 2];
        out[o + 1] = buf[p + 1];
        out[o + 2] = buf[p];
        if (channels === 4) out[o + 3] = buf[p + 3];
      } else {
        const bit = x * bpp;
        const byte = buf[row + (bit >> 3)];
        const index = (byte >> (8 - bpp - (bit & 7))) & ((1 << bpp) - 1);
        if (index >= paletteSize) throw new BmpError("palette index out of range");
        const p = paletteAt + index * 4;
        out[o] = buf[p + 2];
        out[o + 1] = buf[p + 1];
        out[o + 2] = buf[p];
      }
    }
  }
  if (channels === 4 && out.every((v, i) => i % 4 !== 3 || v === 0)) {
    // most 32-bit BMPs leave the alpha byte zero: treat them as opaque
    for (let i = 3; i < out.length; i += 4) out[i] = 255;
  }
  return { data: out, width, height, channels };
}
