import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { mediaDir, video } from "../../../../tests/fixtures/media.ts";
import { MSG } from "../../http/messages.ts";

/** Issue 12 items 5 and 6: media judged by what it contains, checked away from the thread that answers requests. */
let t: TestApp;
let user: { token: string; userId: number };
let media: Awaited<ReturnType<typeof mediaDir>>;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_UPLOADS_PER_HOUR: "1000" });
  user = await visitor(t);
  media = await mediaDir();
});
afterAll(async () => {
  await t.close();
  await media.cleanup();
});

const uploadVideo = (file: Buffer) =>
  t.http.post("/api/Fileuploads/upload").set("token", user.token).attach("file", file, "clip.mp4").field("consent", "1").field("upload_type", "video");

/**
 * Rewrites the duration fields of an MP4's headers (mvhd, every tkhd and mdhd) to claim `seconds`, leaving the
 * samples and their timestamps as they are: a file that lies about its length.
 */
function claimDuration(mp4: Buffer, seconds: number): Buffer {
  const out = Buffer.from(mp4);
  let movieScale = 0;
  for (let i = out.indexOf("moov"); i >= 0 && i < out.length - 4; i++) {
    const type = out.toString("latin1", i, i + 4);
    if (type !== "mvhd" && type !== "tkhd" && type !== "mdhd") continue;
    const v1 = out[i + 4] === 1;
    if (type === "mvhd" || type === "mdhd") {
      const scale = out.readUInt32BE(i + (v1 ? 24 : 16));
      if (type === "mvhd") movieScale = scale;
      if (v1) out.writeBigUInt64BE(BigInt(seconds * scale), i + 28);
      else out.writeUInt32BE(seconds * scale, i + 20);
    } else if (v1) out.writeBigUInt64BE(BigInt(seconds * movieScale), i + 32);
    else out.writeUInt32BE(seconds * movieScale, i + 24);
  }
  return out;
}

async function headerSeconds(file: Buffer): Promise<number> {
  const p = path.join(media.dir, `probe-${Date.now()}.mp4`);
  await fs.writeFile(p, file);
  const { stdout } = await promisify(execFile)("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", p]);
  return Number(stdout.trim());
}

describe("video duration", () => {
  it("a 45 s video whose header claims 10 s is refused as too long", async () => {
    const liar = claimDuration(await video(media.dir, 45, { width: 64, height: 48 }), 10);
    expect(await headerSeconds(liar)).toBeCloseTo(10, 0); // the lie is what a header reader sees
    const res = await uploadVideo(liar).expect(400);
    expect(res.body.msg).toBe(MSG.videoTooLong);
    expect(await t.db.upload.count({ where: { userId: user.userId, kind: "video" } })).toBe(0);
  }, 60_000);

  it("a 2 s clip whose header claims 10 s is refused as too short", async () => {
    const liar = claimDuration(await video(media.dir, 2, { width: 64, height: 48 }), 10);
    expect(await headerSeconds(liar)).toBeCloseTo(10, 0);
    const res = await uploadVideo(liar).expect(400);
    expect(res.body.msg).toBe(MSG.videoTooShort);
  }, 60_000);

  it("an honest 6 s clip is stored with its measured length", async () => {
    const res = await uploadVideo(await video(media.dir, 6, { width: 64, height: 48 })).expect(200);
    expect(res.body.data.duration).toBeCloseTo(6, 0);
  }, 60_000);
});

/** A 1-bit (two-colour palette) uncompressed BMP: about 6 MB at 7071×7071, 50 megapixels to decode. */
function oneBitBmp(width: number, height: number): Buffer {
  const stride = Math.ceil(width / 32) * 4;
  const offset = 14 + 40 + 8;
  const buf = Buffer.alloc(offset + stride * height);
  buf.write("BM", 0, "latin1");
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(offset, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(1, 28);
  buf.writeUInt32LE(2, 46);
  buf.writeUInt32LE(0x00000000, 54); // black
  buf.writeUInt32LE(0x00ffffff, 58); // white
  for (let y = 0; y < height; y++) buf.fill(y % 64 < 32 ? 0xf0 : 0x0f, offset + y * stride, offset + (y + 1) * stride);
  return buf;
}

/** The longest the event loop went without running a 5 ms timer while `work` ran. */
async function longestStall(work: Promise<unknown>): Promise<number> {
  let last = performance.now();
  let worst = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 5);
  try {
    await work;
  } finally {
    clearInterval(tick);
  }
  return worst;
}

describe("images are decoded off the request thread", () => {
  const uploadImage = (file: Buffer, name: string) =>
    t.http.post("/api/ImageUpload/upload").set("token", user.token).attach("file", file, name).field("consent", "1");

  it("a 50-megapixel 1-bit BMP is accepted and scaled down without stalling the server", async () => {
    const big = oneBitBmp(7071, 7071);
    let res: Awaited<ReturnType<typeof uploadImage>> | undefined;
    const stall = await longestStall(uploadImage(big, "big.bmp").then((r) => (res = r)));
    expect(res!.status).toBe(200);
    expect(Math.max(res!.body.data.width, res!.body.data.height)).toBe(2048);
    expect(stall).toBeLessThan(250);
  }, 60_000);

  it("a BMP over the pixel limit is refused from its header, before any decoding", async () => {
    const header = oneBitBmp(64, 64);
    header.writeInt32LE(8000, 18);
    header.writeInt32LE(8000, 22);
    const res = await uploadImage(header, "bomb.bmp").expect(400);
    expect(res.body.msg).toBe(MSG.imageTooManyPixels);
  });
});
