import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { assertSafeKey } from "./local.storage.ts";
import type { MediaStorage } from "./media-storage.ts";

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  defaultTtl: number;
}

/** An S3-compatible bucket (AWS, MinIO, R2...); clients get presigned GET URLs that expire. */
export function createS3Storage(o: S3StorageOptions): MediaStorage {
  // the SDK takes a third of a second to load: only processes that use S3 pay for it, on first use
  let loaded:
    | Promise<{ sdk: typeof import("@aws-sdk/client-s3"); presign: typeof import("@aws-sdk/s3-request-presigner").getSignedUrl; client: S3Client }>
    | undefined;
  const s3 = () =>
    (loaded ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/s3-request-presigner")]).then(([sdk, presigner]) => ({
      sdk,
      presign: presigner.getSignedUrl,
      client: new sdk.S3Client({
        region: o.region,
        endpoint: o.endpoint,
        forcePathStyle: o.forcePathStyle,
        credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
      }),
    })));
  const Bucket = o.bucket;
  async function get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    const { sdk, client } = await s3();
    const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    // streamed from disk with its length, never read whole: a data export's archive may be large (decision 261)
    async putFile(key, file, contentType) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      const { size } = await fs.stat(file);
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: contentType }));
    },
    get,
    async toLocalFile(key, tmpDir) {
      const file = path.join(tmpDir, path.basename(key));
      await fs.writeFile(file, await get(key));
      return file;
    },
    async size(key) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      try {
        return (await client.send(new sdk.HeadObjectCommand({ Bucket, Key: key }))).ContentLength ?? 0;
      } catch (err) {
        if (err instanceof sdk.S3ServiceException && err.$metadata.httpStatusCode === 404) return null;
        throw err;
      }
    },
    async stream(key, range) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      // the bucket answers the range itself: only those bytes travel through the API
      const out = await client.send(new sdk.GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      return out.Body as Readable;
    },
    async exists(key) {
      return (await this.size(key)) !== null;
    },
    async delete(key) {
      assertSafeKey(key);
      const { sdk, client } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: key }));
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
