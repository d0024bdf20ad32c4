import sharp from "sharp";
import phash from "sharp-phash";

/**
 * Perceptual hash of an image: pHash (64-bit DCT hash: 32x32 grey, 2-D DCT-II, the 8x8 lowest frequencies without
 * the DC term, each bit "above their mean") as computed by the npm library `sharp-phash` (MIT, on sharp). Re-encoding,
 * resizing and light crops change few bits; different pictures differ in about half (docs/decisions/142).
 * Returned as an unsigned 64-bit bigint, first bit most significant.
 */
export async function perceptualHash(image: Buffer | string): Promise<bigint> {
  return BigInt(`0b${await phash(image)}`);
}

/** Share of each side kept by the crop variants: crops of up to about 6% of a side land near one of them. */
const VARIANT_KEEP = 0.94;

/**
 * The hashes a taken-down image is blocked under: the whole picture, its centre and its four corners at 94% of each
 * side. pHash alone drifts past the match distance when a few per cent are cut from one side; enrolling these crops
 * catches a lightly cropped re-upload with one hash computed per upload (docs/decisions/142).
 */
export async function enrolmentHashes(image: Buffer): Promise<bigint[]> {
  const decoded = sharp(image).rotate();
  const { data, info } = await decoded.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const w = Math.max(1, Math.round(info.width * VARIANT_KEEP));
  const h = Math.max(1, Math.round(info.height * VARIANT_KEEP));
  const dx = info.width - w;
  const dy = info.height - h;
  const crops = [
    [Math.floor(dx / 2), Math.floor(dy / 2)],
    [0, 0],
    [dx, 0],
    [0, dy],
    [dx, dy],
  ];
  const variants = await Promise.all(crops.map(([left, top]) => sharp(data, raw).extract({ left, top, width: w, height: h }).png().toBuffer()));
  return [...new Set(await Promise.all([image, ...variants].map((v) => perceptualHash(v))))];
}

export function hammingDistance(a: bigint, b: bigint): number {
  let v = a ^ b;
  let n = 0;
  while (v) {
    v &= v - 1n;
    n++;
  }
  return n;
}

/** A hash as 16 hexadecimal digits (the import and export format). */
export const hashHex = (h: bigint) => h.toString(16).padStart(16, "0");

/** A hash in PostgreSQL's signed BIGINT, and back. */
export const toSigned = (h: bigint) => BigInt.asIntN(64, h);
export const fromSigned = (h: bigint) => BigInt.asUintN(64, h);

/**
 * Multi-index hashing: the hash as 5 bands of 13, 13, 13, 13 and 12 bits, band 0 the most significant. Two hashes
 * within 9 bits share one band within 1 bit (pigeonhole), so a lookup probes 5 x 14 band values (docs/decisions/142).
 */
export const BAND_BITS = [13, 13, 13, 13, 12] as const;
export function bandsOf(h: bigint): number[] {
  let shift = 64;
  return BAND_BITS.map((bits) => {
    shift -= bits;
    return Number((h >> BigInt(shift)) & ((1n << BigInt(bits)) - 1n));
  });
}

/** Every `bits`-bit value within `radius` (0, 1 or 2) bit flips of `v`: 1 + 13 values for 13 bits at radius 1. */
export function bandNeighbours(v: number, bits: number, radius: number): number[] {
  const out = [v];
  if (radius < 1) return out;
  for (let i = 0; i < bits; i++) {
    out.push(v ^ (1 << i));
    if (radius < 2) continue;
    for (let j = i + 1; j < bits; j++) out.push(v ^ (1 << i) ^ (1 << j));
  }
  return out;
}
