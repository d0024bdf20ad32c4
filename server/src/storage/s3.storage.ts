import fs from "node:fs/promises";
import path from "node:path";
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { assertSafeKey } from "./local.storage.ts";
import type { MediaStorage } from "./storage.ts";

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
  const client = new S3Client({
    region: o.region,
    endpoint: o.endpoint,
    forcePathStyle: o.forcePathStyle,
    credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
  });
  const Bucket = o.bucket;
  async function get(key: string): Promise<Buffer> {
    assertSafeKey(key);
    const out = await client.send(new GetObjectCommand({ Bucket, Key: key }));
    return Buffer.from(await out.Body!.transformToByteArray());
  }
  return {
    kind: "s3",
    async put(key, body, contentType) {
      assertSafeKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType }));
    },
    async putFile(key, file, contentType) {
      await this.put(key, await fs.readFile(file), contentType);
    },
    get,
    async toLocalFile(key, tmpDir) {
      const file = path.join(tmpDir, path.basename(key));
      await fs.writeFile(file, await get(key));
      return file;
    },
    async exists(key) {
      assertSafeKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (err) {
        if (err instanceof S3ServiceException && err.$metadata.httpStatusCode === 404) return false;
        throw err;
      }
    },
    async delete(key) {
      assertSafeKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async signedUrl(key, ttl = o.defaultTtl) {
      assertSafeKey(key);
      return getSignedUrl(client, new GetObjectCommand({ Bucket, Key: key }), { expiresIn: ttl });
    },
  };
}
