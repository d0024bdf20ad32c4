import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeS3, type FakeS3 } from "../../../tests/fixtures/fake-s3.ts";
import { createLocalStorage } from "./local.storage.ts";
import { createS3Storage } from "./s3.storage.ts";
import { mediaKey } from "./storage.ts";

let s3: FakeS3;
let tmp: string;
beforeAll(async () => {
  s3 = await startFakeS3();
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), "storage-test-"));
});
afterAll(async () => {
  await s3.close();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("S3 storage against a SigV4-checking S3 server", () => {
  const storage = () =>
    createS3Storage({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.url,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      forcePathStyle: true,
      checksums: "when_required",
      defaultTtl: 60,
    });

  it("puts, heads, gets, presigns and deletes an object", async () => {
    const st = storage();
    const key = mediaKey(7, "uploads", "jpg");
    await st.put(key, Buffer.from("hello media"), "image/jpeg");
    expect(s3.objects.get(key)?.body.toString()).toBe("hello media");
    expect(await st.exists(key)).toBe(true);
    expect((await st.get(key)).toString()).toBe("hello media");
    const local = await st.toLocalFile(key, tmp);
    expect(await fs.readFile(local, "utf8")).toBe("hello media");

    const url = await st.signedUrl(key);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("hello media");
    const tampered = await fetch(url.replace(/X-Amz-Signature=[0-9a-f]/, (m) => m.slice(0, -1) + (m.endsWith("0") ? "1" : "0")));
    expect(tampered.status).toBe(403);
    const unsigned = await fetch(`${s3.url}/${s3.bucket}/${key}`);
    expect(unsigned.status).toBe(403);

    await st.delete(key);
    expect(await st.exists(key)).toBe(false);
    expect(s3.rejected).toBe(2);
  });

  it("answers a file's size and streams it whole or one byte range (what ranged media responses send)", async () => {
    const st = storage();
    const key = mediaKey(8, "results", "mp4");
    const body = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
    await st.put(key, body, "video/mp4");
    expect(await st.size(key)).toBe(5000);
    expect(await st.size(mediaKey(8, "results", "mp4"))).toBeNull();
    expect((await buffer(await st.stream(key, { start: 1000, end: 1999 }))).equals(body.subarray(1000, 2000))).toBe(true);
    expect((await buffer(await st.stream(key))).equals(body)).toBe(true);
    expect(s3.rejected).toBe(2);
  });

  it("fails with a wrong secret", async () => {
    const st = createS3Storage({
      bucket: s3.bucket,
      region: s3.region,
      endpoint: s3.url,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: "wrong-secret-wrong-secret",
      forcePathStyle: true,
      checksums: "when_required",
      defaultTtl: 60,
    });
    await expect(st.put("u/1/x/a.txt", Buffer.from("x"), "text/plain")).rejects.toThrow();
  });
});

describe("local storage byte ranges", () => {
  it("answers a file's size and streams it whole or one byte range", async () => {
    const st = createLocalStorage({ root: tmp, secret: "s".repeat(32), defaultTtl: 60, publicUrl: "http://localhost:8080" });
    const key = mediaKey(9, "results", "mp4");
    const body = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 3) % 256));
    await st.put(key, body, "video/mp4");
    expect(await st.size(key)).toBe(3000);
    expect(await st.size(mediaKey(9, "results", "mp4"))).toBeNull();
    expect((await buffer(await st.stream(key, { start: 10, end: 2999 }))).equals(body.subarray(10))).toBe(true);
    expect((await buffer(await st.stream(key))).equals(body)).toBe(true);
  });
});

describe("local storage signatures", () => {
  it("accepts its own signature until expiry and nothing else", async () => {
    const st = createLocalStorage({ root: tmp, secret: "s".repeat(32), defaultTtl: 60, publicUrl: "http://localhost:8080" });
    const key = mediaKey(3, "out", "mp4");
    await st.put(key, Buffer.from("abc"), "video/mp4");
    const signed = await st.signedUrl(key);
    // relative, so it loads from whatever host the browser used (issue 11 item 10)
    expect(signed.startsWith("/api/media/file?")).toBe(true);
    const u = new URL(signed, "http://any-host");
    const exp = Number(u.searchParams.get("expires"));
    const sig = u.searchParams.get("sig")!;
    expect(st.signer.verify(key, exp, sig)).toBe(true);
    expect(st.signer.verify(key.replace("u/3", "u/4"), exp, sig)).toBe(false);
    expect(st.signer.verify(key, exp + 1, sig)).toBe(false);
    expect(st.signer.verify(key, exp, sig, (exp + 1) * 1000)).toBe(false);
    expect(() => st.fileOf("u/3/../../etc/passwd")).toThrow();
  });
});
