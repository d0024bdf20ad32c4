import type { Logger } from "pino";
import { AWS_CHUNK_HEAD, decodeAwsChunked, trailerChecksumMatches } from "./aws-chunked.ts";
import type { S3Storage } from "./s3.storage.ts";

export interface RepairReport {
  scanned: number;
  repaired: string[];
  /** Objects that look framed but whose trailing checksum does not match: left as they are, for a person to look at. */
  failed: string[];
}

// enough of an object's start to see a chunk head with its 64-digit signature
const PREFIX_BYTES = 96;

/**
 * `npm run storage:repair`: finds the objects that a store kept with the SDK's `aws-chunked` framing as their bytes, or
 * with `aws-chunked` as their stored content encoding (issue 51), and writes each back in place as the bytes that were
 * meant, with its content type and no encoding. Only an object's first bytes are read unless they look framed, and an
 * object is rewritten only when the framing covers it exactly and any trailing checksum matches the decoded bytes.
 */
export async function repairFramedObjects(storage: S3Storage, log: Logger, o: { dryRun: boolean }): Promise<RepairReport> {
  const { sdk, client } = await storage.connection();
  const report: RepairReport = { scanned: 0, repaired: [], failed: [] };
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: storage.bucket, ContinuationToken }));
    for (const { Key: key, Size } of page.Contents ?? []) {
      if (!key) continue;
      report.scanned++;
      if (!Size) continue;
      const start = await client.send(new sdk.GetObjectCommand({ Bucket: storage.bucket, Key: key, Range: `bytes=0-${PREFIX_BYTES - 1}` }));
      const prefix = Buffer.from(await start.Body!.transformToByteArray()).toString("latin1");
      const encoded = /aws-chunked/i.test(start.ContentEncoding ?? "");
      if (!encoded && !AWS_CHUNK_HEAD.test(prefix)) continue;
      const stored = await storage.get(key);
      const framed = decodeAwsChunked(stored);
      // real data that merely starts like a chunk head, and is not marked as encoded
      if (!framed && !encoded) continue;
      if (framed && trailerChecksumMatches(framed) === false) {
        log.error({ key, trailers: framed.trailers }, "storage repair: framed, but its trailing checksum does not match: left as it is");
        report.failed.push(key);
        continue;
      }
      const bytes = framed ? framed.data : stored;
      const contentType = start.ContentType ?? "application/octet-stream";
      const change = { key, contentType, storedBytes: stored.length, bytes: bytes.length, storedEncoding: start.ContentEncoding ?? null };
      if (o.dryRun) {
        log.info(change, "storage repair: would repair");
      } else {
        await storage.put(key, bytes, contentType);
        log.info(change, "storage repair: repaired");
      }
      report.repaired.push(key);
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return report;
}
