import fs from "node:fs/promises";
import { contentMd5, type S3Connection } from "./s3.client.ts";

/** Files above one part go up in parts of this size (S3 takes parts of 5 MiB to 5 GiB, all but the last at least 5). */
export const PART_BYTES = 8 * 1024 * 1024;

export interface PartsUpload {
  bucket: string;
  key: string;
  file: string;
  size: number;
  contentType: string;
}

/**
 * A multipart upload of a file on disk, one part in memory at a time, each with its Content-MD5 so the store refuses a
 * part that arrived different. One part after another: a render's files are stored while the worker may be rendering
 * the next job, and the bucket's bandwidth, not the parallelism, is what a few parts would wait on. A failure aborts the
 * upload, so the store keeps no orphan parts.
 */
export async function putInParts({ sdk, client }: S3Connection, u: PartsUpload): Promise<void> {
  const { UploadId } = await client.send(new sdk.CreateMultipartUploadCommand({ Bucket: u.bucket, Key: u.key, ContentType: u.contentType }));
  const handle = await fs.open(u.file, "r");
  try {
    const parts: { ETag?: string; PartNumber: number }[] = [];
    for (let offset = 0, n = 1; offset < u.size; offset += PART_BYTES, n++) {
      const body = Buffer.alloc(Math.min(PART_BYTES, u.size - offset));
      const { bytesRead } = await handle.read(body, 0, body.length, offset);
      if (bytesRead !== body.length) throw new Error(`${u.file} changed while it was being stored`);
      const done = await client.send(
        new sdk.UploadPartCommand({
          Bucket: u.bucket,
          Key: u.key,
          UploadId,
          PartNumber: n,
          Body: body,
          ContentLength: body.length,
          ContentMD5: contentMd5(body),
        }),
      );
      parts.push({ ETag: done.ETag, PartNumber: n });
    }
    await client.send(new sdk.CompleteMultipartUploadCommand({ Bucket: u.bucket, Key: u.key, UploadId, MultipartUpload: { Parts: parts } }));
  } catch (err) {
    await client.send(new sdk.AbortMultipartUploadCommand({ Bucket: u.bucket, Key: u.key, UploadId })).catch(() => undefined);
    throw err;
  } finally {
    await handle.close();
  }
}
