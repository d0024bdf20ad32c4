import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertSafeKey } from "./local.storage.ts";
import type { MediaStorage } from "./media-storage.ts";
import { contentMd5, lazyS3Connection, type S3Connection, type S3ConnectionOptions } from "./s3.client.ts";
import { PART_BYTES, putInParts } from "./s3.multipart.ts";

const REACHABLE_TIMEOUT_MS = 3000;

export interface S3StorageOptions extends S3ConnectionOptions {
  bucket: string;
  defaultTtl: number;
}

/** What a bucket holds under a key, as far as a HEAD tells. */
export interface StoredObject {
  size: number;
  contentType?: string;
  contentEncoding?: string;
}

/** The S3 calls the repair command needs beyond MediaStorage (storage/s3.repair.ts). */
export interface S3Storage extends MediaStorage {
  readonly kind: "s3";
  readonly bucket: string;
  connection(): Promise<S3Connection>;
  head(key: string): Promise<StoredObject | null>;
}

/**
 * An S3-compatible bucket (AWS, MinIO, R2...); clients get presigned GET URLs that expire. Every write is sent with a
 * Content-MD5 (the store refuses bytes that arrived different) and checked after by a HEAD: an object the store kept at
 * another size, or with the `aws-chunked` framing as its encoding, fails the write instead of being served (issue 51).
 */
export function createS3Storage(o: S3StorageOptions): S3Storage {
  const s3 = lazyS3Connection(o);
  const Bucket = o.bucket;

  async function head(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    const { sdk, client } = await s3();
    try {
      const h = await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }));
      return { size: h.ContentLength ?? 0, contentType: h.ContentType, contentEncoding: h.ContentEncoding };
    } catch (err) {
      if (err instanceof sdk.S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
      throw err;
    }
  }

  // Only an S3-compatible store sent the SDK's framed bodies (checksums `when_supported` with an endpoint) may keep the
  // framing as data; with `when_required`, or on AWS, Content-MD5 already refuses wrong bytes and no HEAD is needed.
  const framedBodies = o.checksums === "when_supported" && !!o.endpoint;
  async function verifyStored(key: string, size: number): Promise<void> {
    if (!framedBodies) return;
    const stored = await head(key);
    if (stored && stored.size === size && !/aws-chunked/i.test(stored.contentEncoding ?? "")) return;
    const kept = stored ? `${stored.size} bytes${stored.contentEncoding ? ` encoded ${stored.contentEncoding}` : ""}` : "nothing";
    throw new Error(`the store kept ${kept} for ${key}, not the ${size} bytes written (S3_CHECKSUMS=when_required may be what it needs)`);
  }

  async function put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertSafeKey(key);
    const { sdk, client } = await s3();
    await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentMD5: contentMd5(body) }));
    await verifyStored(key, body.length);
  }

  async function get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    const { sdk, client } = await s3();
    const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }

  async function stream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertSafeKey(key);
    const { sdk, client } = await s3();
    // the bucket answers the range itself: only those bytes travel through the API
    const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return out.Body as Readable;
  }

  return {
    kind: "s3",
    bucket: Bucket,
    connection: s3,
    head,
    put,
    // a file of one part is read whole (its MD5 is needed before the request); larger ones go up a part at a time, so a
    // data export's archive or a long video is never held in memory whole (decision 261)
    async putFile(key, file, contentType) {
      assertSafeKey(key);
      const { size } = await fs.stat(file);
      if (size <= PART_BYTES) return put(key, await fs.readFile(file), contentType);
      await putInParts(await s3(), { bucket: Bucket, key, file, size, contentType });
      await verifyStored(key, size);
    },
    get,
    async toLocalFile(key, tmpDir) {
      const file = path.join(tmpDir, path.basename(key));
      await pipeline(await stream(key), createWriteStream(file));
      return file;
    },
    async size(key) {
      return (await head(key))?.size ?? null;
    },
    stream,
    async exists(key) {
      return (await head(key)) !== null;
    },
    async delete(key) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
    },
    // a store that does not answer within the time a load balancer's probe waits is as good as unreachable
    async reachable() {
      try {
        const { sdk, client } = await s3();
        await client.send(new sdk.HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(REACHABLE_TIMEOUT_MS) });
        return true;
      } catch {
        return false;
      }
    },
    async signedUrl(key, ttl = o.defaultTtl, downloadAs) {
      assertSafeKey(key);
      const { sdk, client, presign } = await s3();
      const disposition = downloadAs ? { ResponseContentDisposition: `attachment; filename="${downloadAs}"` } : {};
      return presign(client, new sdk.GetObjectCommand({ Bucket, Key: key, ...disposition }), { expiresIn: ttl });
    },
    fetchableUrl(key, ttl = o.defaultTtl) {
      return this.signedUrl(key, ttl);
    },
  };
}
