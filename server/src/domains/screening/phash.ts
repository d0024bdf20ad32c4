import sharp from "sharp";

/** Side of the grey square the hash is computed from, and of the block of low frequencies it keeps. */
const SAMPLE = 32;
const LOW = 8;

/** cos((2i+1)/(2N) u pi) for the 32 samples i and the frequencies u = 0..8 the hash reads: COS[i * (LOW + 1) + u]. */
const COS = new Float64Array(SAMPLE * (LOW + 1));
for (let i = 0; i < SAMPLE; i++) for (let u = 0; u <= LOW; u++) COS[i * (LOW + 1) + u] = Math.cos(((2 * i + 1) / (2 * SAMPLE)) * u * Math.PI);

/**
 * Perceptual hash of an image: pHash (64-bit DCT hash: 32x32 grey, 2-D DCT-II, the 8x8 lowest frequencies without
 * the DC term, each bit "above their mean"), bit for bit as the npm library `sharp-phash` 2.2 computes it, which made
 * every hash already stored. That library computes all 1,024 coefficients (a million multiplications on the event loop,
 * several milliseconds a hash, holding up every request and chat stream meanwhile); the hash reads 64 of them, computed
 * here with the same operations in the same order, so with the same rounding (docs/decisions/399). Re-encoding, resizing
 * and light crops change few bits; different pictures differ in about half (docs/decisions/142). Returned as an
 * unsigned 64-bit bigint, first bit most significant.
 */
export async function perceptualHash(image: Buffer | string): Promise<bigint> {
  const grey = await sharp(image).greyscale().resize(SAMPLE, SAMPLE, { fit: "fill" }).rotate().raw().toBuffer();
  // f(x, y): column x, row y of the grey square
  const f = (x: number, y: number) => grey[SAMPLE * y + x];
  const low = new Float64Array(LOW * LOW);
  let total = 0;
  for (let u = 1; u <= LOW; u++) {
    for (let v = 1; v <= LOW; v++) {
      let sum = 0;
      for (let i = 0; i < SAMPLE; i++) {
        for (let j = 0; j < SAMPLE; j++) sum += COS[i * (LOW + 1) + u] * COS[j * (LOW + 1) + v] * f(i, j);
      }
      // the library's scale: its weights are 1 above the DC term, (1 * 1) / 4
      sum *= 1 / 4;
      low[(u - 1) * LOW + (v - 1)] = sum;
      total += sum;
    }
  }
  const mean = total / (LOW * LOW);
  let hash = 0n;
  for (const c of low) hash = (hash << 1n) | (c > mean ? 1n : 0n);
  return hash;
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
