import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import libraryPhash from "sharp-phash";
import { describe, expect, it } from "vitest";
import { perceptualHash } from "./phash.ts";

/** What `sharp-phash` 2.2 (which computed every hash already stored) makes of an image, as our unsigned bigint. */
const library = async (image: Buffer) => BigInt(`0b${await libraryPhash(image)}`);

/** Seeded noise, so a failure names an image that can be made again. */
function noise(seed: number, width: number, height: number, channels: 1 | 3): Promise<Buffer> {
  let x = seed;
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < data.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return sharp(data, { raw: { width, height, channels } }).png().toBuffer();
}

describe("perceptual hash (docs/decisions/399)", () => {
  it("is bit for bit the hash sharp-phash computes: photos, noise, flat, mirrored and EXIF-rotated images", async () => {
    const faces = path.resolve("tests/fixtures/faces");
    const photos = await Promise.all((await fs.readdir(faces)).filter((f) => f.endsWith(".jpg")).map((f) => fs.readFile(path.join(faces, f))));
    const flat = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#808080" } })
      .png()
      .toBuffer();
    const gradient = await sharp(
      Buffer.from(
        '<svg width="300" height="200"><defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient></defs><rect width="300" height="200" fill="url(#g)"/></svg>',
      ),
    )
      .png()
      .toBuffer();
    // left-right symmetric: half of its coefficients are zero in exact arithmetic, so their bits are decided by rounding
    const mirrored = await sharp(photos[0])
      .resize(200, 200)
      .flop()
      .toBuffer()
      .then(async (flopped) =>
        sharp({ create: { width: 400, height: 200, channels: 3, background: "#000" } })
          .composite([
            { input: await sharp(photos[0]).resize(200, 200).toBuffer(), left: 0, top: 0 },
            { input: flopped, left: 200, top: 0 },
          ])
          .png()
          .toBuffer(),
      );
    const images = [
      ...photos,
      ...(await Promise.all(photos.slice(0, 3).map((p) => sharp(p).webp({ quality: 50 }).toBuffer()))),
      ...(await Promise.all(Array.from({ length: 12 }, (_, i) => noise(i + 1, 40 + i * 13, 30 + i * 7, i % 2 ? 1 : 3)))),
      flat,
      gradient,
      mirrored,
      // a camera that stored the picture turned: the hash is of the picture upright
      await sharp(photos[1]).jpeg().withMetadata({ orientation: 6 }).toBuffer(),
    ];
    for (const [i, image] of images.entries()) expect(await perceptualHash(image), `image ${i}`).toBe(await library(image));
    // and it tells pictures apart: the photos' hashes are all different
    expect(new Set(await Promise.all(photos.map(perceptualHash))).size).toBe(photos.length);
  });
});
