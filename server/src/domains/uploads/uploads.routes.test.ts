import { once } from "node:events";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, fetchMedia, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { audio, bmp, elevenMegabytePng, mediaDir, photo, photoWithExif, pixelBomb, video } from "../../../../tests/fixtures/media.ts";
import { MSG } from "../../http/messages.ts";
import { ffmpeg, probe } from "../../storage/media-tools.ts";
import { startFakeS3 } from "../../../../tests/fixtures/fake-s3.ts";

let t: TestApp;
let user: { token: string; userId: number };
let media: Awaited<ReturnType<typeof mediaDir>>;
beforeAll(async () => {
  t = await createTestApp();
  user = await visitor(t);
  media = await mediaDir();
});
afterAll(async () => {
  await t.close();
  await media.cleanup();
});

const upload = (path: string, file: Buffer, name: string, fields: Record<string, string> = { consent: "1" }, token = user.token) => {
  let req = t.http.post(path).set("token", token).attach("file", file, name);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req;
};

const send = (app: TestApp, token: string, file: Buffer) =>
  app.http.post("/api/ImageUpload/upload").set("token", token).attach("file", file, "a.jpg").field("consent", "1");

type Answer = { status: number; msg: string };
type SlowUpload = { answer: Promise<Answer>; settled?: Answer; finish(): void };

/** A multipart upload whose last bytes are held back until `finish()`: it stays in flight on the server till then. */
function slowUpload(port: number, token: string, file: Buffer): SlowUpload {
  const boundary = `----reverie${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="consent"\r\n\r\n1\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const req = http.request({
    port,
    host: "127.0.0.1",
    method: "POST",
    path: "/api/ImageUpload/upload",
    headers: { token, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": body.length },
  });
  const x: SlowUpload = {
    answer: new Promise<Answer>((resolve, reject) => {
      req.on("response", async (res) => {
        let text = "";
        for await (const chunk of res) text += chunk;
        x.settled = { status: res.statusCode!, msg: JSON.parse(text).msg };
        resolve(x.settled);
      });
      // a refused upload's connection may close under the bytes still being written
      req.on("error", (err) => (x.settled ? undefined : reject(err)));
    }),
    finish: () => req.end(body.subarray(body.length - 100)),
  };
  req.write(body.subarray(0, body.length - 100));
  return x;
}

/** The first `n` answers among these uploads, in the order they came; fails if fewer come within 20 s. */
async function firstAnswers(uploads: SlowUpload[], n: number): Promise<Answer[]> {
  const got: Answer[] = [];
  for (const x of uploads)
    void x.answer.then(
      (a) => got.push(a),
      () => undefined,
    );
  const end = Date.now() + 20_000;
  while (got.length < n) {
    if (Date.now() > end) throw new Error(`${got.length} of ${n} uploads answered: ${JSON.stringify(got)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return got.slice(0, n);
}

describe("image uploads", () => {
  it("accepts each allowed type by content, re-encodes it and answers id and a signed file_url", async () => {
    // re-encoded: a picture with an alpha channel becomes a PNG, any other a JPEG, at its own size, in new bytes
    for (const [buf, name, format, width, height] of [
      [await photo(640, 480, "jpeg"), "a.jpg", "jpeg", 640, 480],
      [await photo(640, 480, "png"), "a.png", "png", 640, 480],
      [await photo(640, 480, "webp"), "a.webp", "jpeg", 640, 480],
      [bmp(64, 48), "a.bmp", "jpeg", 64, 48],
      [
        await sharp({ create: { width: 50, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
          .greyscale()
          // stored uncompressed: a re-encode's bytes differ even where its settings match sharp's defaults
          .png({ compressionLevel: 0 })
          .toBuffer(),
        "grey-alpha.png",
        "png",
        50,
        40,
      ],
      [
        await sharp({ create: { width: 50, height: 40, channels: 3, background: "#777" } })
          .greyscale()
          .jpeg()
          .toBuffer(),
        "grey.jpg",
        "jpeg",
        50,
        40,
      ],
    ] as const) {
      const res = await upload("/api/ImageUpload/upload", buf, name).expect(200);
      expect(res.body.data.id).toBeGreaterThan(0);
      const got = await fetchMedia(t, res.body.data.file_url);
      expect(got.status).toBe(200);
      const meta = await sharp(got.body).metadata();
      expect({ name, format: meta.format, width: meta.width, height: meta.height }).toEqual({ name, format, width, height });
      expect(got.body.equals(buf), `${name} stored as sent`).toBe(false);
    }
  });

  it("judges by content: a PNG renamed .jpg and a JPEG renamed .png are accepted as what they are", async () => {
    const png = await upload("/api/ImageUpload/upload2", await photo(300, 200, "png"), "holiday.jpg").expect(200);
    expect(png.body.data.width).toBe(300);
    const jpg = await upload("/api/ImageUpload/upload", await photo(200, 300, "jpeg"), "holiday.png").expect(200);
    expect(jpg.body.data.height).toBe(300);
  });

  it("refuses a file that is not media at all, with the SPEC message", async () => {
    const res = await upload("/api/ImageUpload/upload", Buffer.from("%PDF-1.4 this is not an image at all".repeat(10)), "photo.jpg").expect(400);
    expect(res.body.msg).toBe("Incorrect image format, please upload png, jpg, jpeg, webp, bmp format!");
    const gif = await upload("/api/ImageUpload/upload", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;", "latin1"), "x.gif").expect(400);
    expect(gif.body.msg).toBe(MSG.imageFormat);
  });

  it("refuses a pixel bomb before decoding it", async () => {
    const res = await upload("/api/ImageUpload/upload", pixelBomb(), "bomb.png").expect(400);
    expect(res.body.msg).toBe(MSG.imageTooManyPixels);
  });

  it("refuses an 11 MB image with the SPEC message", async () => {
    const big = await elevenMegabytePng();
    expect(big.length).toBeGreaterThan(11 * 1024 * 1024);
    const res = await upload("/api/ImageUpload/upload", big, "big.png").expect(400);
    expect(res.body.msg).toBe("The image size of the uploaded image cannot exceed 10MB!");
  });

  it("refuses a truncated image whose header looks right", async () => {
    const jpg = await photo(400, 400, "jpeg");
    const res = await upload("/api/ImageUpload/upload", jpg.subarray(0, 200), "cut.jpg").expect(400);
    expect(res.body.msg).toBe(MSG.imageUnreadable);
  });

  it("strips EXIF and GPS", async () => {
    const original = await photoWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload("/api/ImageUpload/upload", original, "gps.jpg").expect(200);
    const stored = (await fetchMedia(t, res.body.data.file_url)).body;
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    expect(stored.includes(Buffer.from("Secret Owner"))).toBe(false);
    expect((await fetchMedia(t, res.body.data.thumb_url)).status).toBe(200);
  });

  it("requires the consent attestation and records when it was given", async () => {
    const res = await upload("/api/ImageUpload/upload", await photo(), "a.jpg", {}).expect(400);
    expect(res.body.msg).toBe(MSG.consentRequired);
    const ok = await upload("/api/Fileuploads/upload", await photo(), "a.jpg", { consent: "1", upload_type: "image" }).expect(200);
    const row = await t.db.upload.findUniqueOrThrow({ where: { id: ok.body.data.id } });
    expect(row.consentAt).toBeInstanceOf(Date);
  });

  it("is 401 without a login and changes nothing", async () => {
    const before = await t.db.upload.count();
    await t.http
      .post("/api/ImageUpload/upload")
      .attach("file", await photo(), "a.jpg")
      .field("consent", "1")
      .expect(401);
    expect(await t.db.upload.count()).toBe(before);
  });
});

describe("video uploads", () => {
  it("accepts a 5-second video and refuses 3 s, 31 s and a non-video", async () => {
    const ok = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 5), "clip.mp4").expect(200);
    expect(ok.body.data.duration).toBeCloseTo(5, 0);
    expect(ok.body.data.type).toBe("video");
    const short = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 3), "short.mp4").expect(400);
    expect(short.body.msg).toBe(MSG.videoTooShort);
    const long = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 31, { width: 64, height: 48, audio: false }), "long.mp4").expect(400);
    expect(long.body.msg).toBe("Video duration exceeds limit");
    const junk = await upload("/api/Fileuploads/upload", Buffer.from("\x00\x00\x00\x18ftypmp42 but then garbage".repeat(20), "latin1"), "bad.mp4", {
      consent: "1",
      upload_type: "video",
    }).expect(400);
    expect(junk.body.msg).toBe("Cannot parse video file");
    const image = await upload("/api/ImageUpload/videoFromMedia", await photo(), "photo.mp4").expect(400);
    expect(image.body.msg).toBe("Cannot parse video file");
  });
  it("stores and uses only the chosen range of a longer clip", async () => {
    const source = await video(media.dir, 20, { audio: false });
    const res = await upload("/api/ImageUpload/videoFromMedia", source, "long.mp4", { consent: "1", start: "10", end: "15" }).expect(200);
    expect(res.body.data.duration).toBeCloseTo(5, 0);
    const row = await t.db.upload.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect([row.trimStartMs, row.trimEndMs]).toEqual([10000, 15000]);
    const stored = path.join(media.dir, "stored.mp4");
    await fs.writeFile(stored, await t.services.storage.get(row.storageKey));
    expect((await probe(stored)).durationSec).toBeCloseTo(5, 0);
    // testsrc draws a running counter: the stored clip's first frame is the source's frame at 10 s, not at 0 s
    const src = path.join(media.dir, "source.mp4");
    await fs.writeFile(src, source);
    const frame = async (file: string, at: number) => {
      const png = path.join(media.dir, `f-${path.basename(file)}-${at}.png`);
      await ffmpeg(["-ss", String(at), "-i", file, "-frames:v", "1", png]);
      return sharp(png).greyscale().raw().toBuffer();
    };
    const diff = (a: Buffer, b: Buffer) => a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length;
    const first = await frame(stored, 0);
    expect(diff(first, await frame(src, 10))).toBeLessThan(diff(first, await frame(src, 0)) / 3);
    const reversed = await upload("/api/ImageUpload/videoFromMedia", source, "long.mp4", { consent: "1", start: "15", end: "10" }).expect(400);
    expect(reversed.body.msg).toBe(MSG.trimInvalid);
    const tooShort = await upload("/api/ImageUpload/videoFromMedia", source, "long.mp4", { consent: "1", start: "10", end: "12" }).expect(400);
    expect(tooShort.body.msg).toBe(MSG.videoTooShort);
  });
});

describe("audio uploads", () => {
  it("trims to the chosen range", async () => {
    const res = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 12), "song.mp3", { consent: "1", start: "2", end: "8.5" }).expect(200);
    expect(res.body.data.duration).toBeCloseTo(6.5, 1);
    const row = await t.db.upload.findUniqueOrThrow({ where: { id: res.body.data.id } });
    expect([row.trimStartMs, row.trimEndMs]).toEqual([2000, 8500]);
  });

  it("a sound file without the uploader's attestation is refused, and nothing is stored (issue 46 item 2)", async () => {
    const before = await t.db.upload.count({ where: { userId: user.userId } });
    const res = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 6), "a.mp3", { start: "0", end: "5" }).expect(400);
    expect(res.body.msg).toBe(MSG.consentRequired);
    expect(await t.db.upload.count({ where: { userId: user.userId } })).toBe(before);
  });

  it("takes the sound of one of the caller's own video uploads", async () => {
    const clip = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 6), "clip.mp4").expect(200);
    const res = await t.http
      .post("/api/ImageUpload/audioFromMedia")
      .set("token", user.token)
      .send({ media_id: clip.body.data.id, start: 1, end: 5.5 })
      .expect(200);
    expect(res.body.data.type).toBe("audio");
    expect(res.body.data.duration).toBeCloseTo(4.5, 1);
    const other = await visitor(t);
    await t.http.post("/api/ImageUpload/audioFromMedia").set("token", other.token).send({ media_id: clip.body.data.id, start: 0, end: 5 }).expect(404);
  });

  it("refuses a 6-minute source, bad ranges and non-audio", async () => {
    const six = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 360), "long.mp3", { consent: "1", start: "0", end: "20" }).expect(400);
    expect(six.body.msg).toBe(MSG.audioTooLong);
    const a = await audio(media.dir, 40);
    expect((await upload("/api/ImageUpload/audioFromMedia", a, "a.mp3", { consent: "1", start: "0", end: "3" }).expect(400)).body.msg).toBe(MSG.trimLength);
    expect((await upload("/api/ImageUpload/audioFromMedia", a, "a.mp3", { consent: "1", start: "0", end: "35" }).expect(400)).body.msg).toBe(MSG.trimLength);
    expect((await upload("/api/ImageUpload/audioFromMedia", a, "a.mp3", { consent: "1", start: "10", end: "5" }).expect(400)).body.msg).toBe(MSG.trimInvalid);
    expect((await upload("/api/ImageUpload/audioFromMedia", a, "a.mp3", { consent: "1", start: "30", end: "45" }).expect(400)).body.msg).toBe(MSG.trimInvalid);
    expect((await upload("/api/ImageUpload/audioFromMedia", await photo(), "a.mp3").expect(400)).body.msg).toBe(MSG.audioFormat);
  });
});

describe("ownership", () => {
  it("the pickers' earlier uploads (issue 30): each kind lists only the caller's own audio and video", async () => {
    const a = await upload("/api/ImageUpload/audioFromMedia", await audio(media.dir, 6), "a.mp3", { consent: "1", start: "0", end: "5" }).expect(200);
    const v = await upload("/api/ImageUpload/videoFromMedia", await video(media.dir, 4), "v.mp4").expect(200);
    const other = await visitor(t);
    const ids = async (type: string, token: string) =>
      (await t.http.get(`/api/ImageUpload/uploadList?type=${type}&limit=10`).set("token", token).expect(200)).body.data.list.map((u: { id: number }) => u.id);
    expect(await ids("audio", user.token)).toContain(a.body.data.id);
    expect(await ids("video", user.token)).toContain(v.body.data.id);
    expect(await ids("audio", user.token)).not.toContain(v.body.data.id);
    expect(await ids("audio", other.token)).toEqual([]);
    expect(await ids("video", other.token)).toEqual([]);
    expect((await t.http.get("/api/ImageUpload/imageList?limit=10").set("token", other.token).expect(200)).body.data.list).toEqual([]);
  });

  it("lists only the caller's uploads; another user's upload and its guessed URL are 404", async () => {
    const mine = await upload("/api/ImageUpload/upload", await photo(), "mine.jpg").expect(200);
    const other = await visitor(t);
    await t.http.get(`/api/ImageUpload/uploadDetails2?id=${mine.body.data.id}`).set("token", other.token).expect(404);
    const list = await t.http.get("/api/ImageUpload/uploadList?limit=50").set("token", other.token).expect(200);
    expect(list.body.data.list).toEqual([]);
    const own = await t.http.get("/api/ImageUpload/imageList?limit=10&page=1").set("token", user.token).expect(200);
    expect(own.body.data.list.map((u: { id: number }) => u.id)).toContain(mine.body.data.id);
    await t.http.get("/api/ImageUpload/uploadList?limit=15").set("token", user.token).expect(400);

    // a URL for the same key with a forged signature, or an expired one, is refused
    const url = new URL(mine.body.data.file_url, "http://any-host");
    url.searchParams.set("sig", "A".repeat(43));
    expect((await fetchMedia(t, url.toString())).status).toBe(404);
    const key = new URL(mine.body.data.file_url, "http://any-host").searchParams.get("key")!;
    const guess = `/api/media/file?key=${encodeURIComponent(key)}&expires=${Math.floor(Date.now() / 1000) + 600}&sig=x`;
    expect((await t.http.get(guess)).status).toBe(404);
  });
});

describe("with S3 storage", () => {
  it("stores uploads in the bucket and answers presigned URLs", async () => {
    const s3 = await startFakeS3();
    const app = await createTestApp({
      STORAGE: "s3",
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ENDPOINT: s3.url,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      const u = await visitor(app);
      const res = await app.http
        .post("/api/ImageUpload/upload")
        .set("token", u.token)
        .attach("file", await photo(), "a.jpg")
        .field("consent", "1")
        .expect(200);
      expect(res.body.data.file_url.startsWith(`${s3.url}/${s3.bucket}/u/${u.userId}/uploads/`)).toBe(true);
      const got = await fetch(res.body.data.file_url);
      expect(got.status).toBe(200);
      expect((await sharp(Buffer.from(await got.arrayBuffer())).metadata()).format).toBe("jpeg");
      expect(s3.objects.size).toBe(2);
      expect(s3.rejected).toBe(0);
    } finally {
      await app.close();
      await s3.close();
    }
  });
});

describe("rate limits", () => {
  it("runs at most UPLOADS_AT_ONCE_PER_ACCOUNT of one account's uploads at once: the rest are refused at once, others' uploads go on", async () => {
    const app = await createTestApp({ UPLOADS_AT_ONCE_PER_ACCOUNT: "2" });
    const server = app.app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const port = (server.address() as AddressInfo).port;
    try {
      const [u, other] = [await visitor(app), await visitor(app)];
      const big = await photo(2000, 1500);
      // twelve uploads whose files stay on their way: the two the cap lets in wait for their bytes, the ten past it
      // are answered 429 at once, which a cap of 3 or 11 would not do
      const uploads = Array.from({ length: 12 }, () => slowUpload(port, u.token, big));
      const refused = await firstAnswers(uploads, 10);
      expect(refused.map((r) => [r.status, r.msg])).toEqual(Array(10).fill([429, MSG.uploadsAtOnce]));
      expect((await send(app, other.token, big)).status).toBe(200);
      const admitted = uploads.filter((x) => !refused.includes(x.settled!));
      expect(admitted).toHaveLength(2);
      for (const x of admitted) x.finish();
      expect((await Promise.all(admitted.map((x) => x.answer))).map((r) => r.status)).toEqual([200, 200]);
      // the places are given back: the next upload of the same account goes through
      expect((await send(app, u.token, big)).status).toBe(200);
    } finally {
      server.close();
      // a failed run leaves uploads waiting for their last bytes
      server.closeAllConnections();
      await app.close();
    }
  });

  it("answers 429 'Too many requests' past the hourly uploads of one user, before reading the file", async () => {
    const app = await createTestApp({ RATE_LIMIT_UPLOADS_PER_HOUR: "2" });
    try {
      const u = await visitor(app);
      const send = () => app.http.post("/api/ImageUpload/upload").set("token", u.token).attach("file", Buffer.from("x"), "a.jpg").field("consent", "1");
      expect((await send()).status).toBe(400);
      expect((await send()).status).toBe(400);
      const third = await send().expect(429);
      expect(third.body.msg).toBe("Too many requests");
      const other = await visitor(app);
      expect(
        (
          await app.http
            .post("/api/ImageUpload/upload")
            .set("token", other.token)
            .attach("file", await photo(), "a.jpg")
            .field("consent", "1")
        ).status,
      ).toBe(200);
    } finally {
      await app.close();
    }
  });
});
