import sharp from "sharp";

/**
 * Difference hash (dHash, Neal Krawetz, "Kind of Like That", 2013): shrink to 9x8 grey pixels ignoring aspect,
 * and set one bit per pixel for "brighter than its right-hand neighbour". Re-encodes, small crops, resizes and
 * brightness changes keep most bits; different pictures differ in about half of the 64.
 */
export async function dHash(image: Buffer): Promise<bigint> {
  const px = await sharp(image).rotate().greyscale().resize(9, 8, { fit: "fill", kernel: "lanczos3" }).raw().toBuffer();
  let hash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) hash = (hash << 1n) | (px[y * 9 + x] > px[y * 9 + x + 1] ? 1n : 0n);
  }
  return hash;
}

export function hammingDistance(a: bigint, b: bigint): number {
  let v = a ^ b;
  let n = 0;
  while (v) {
    n += Number(v & 1n);
    v >>= 1n;
  }
  return n;
}

/** Two photos this close (out of 64 bits) are the same shot for training purposes. */
export const NEAR_DUPLICATE_BITS = 6;
