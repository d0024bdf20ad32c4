import crypto from "node:crypto";
import type { S3Client } from "@aws-sdk/client-s3";

/**
 * When the SDK adds checksums of its own. `when_supported` (the SDK's default since 2025) sends every upload's body
 * `aws-chunked` with a trailing CRC32, which AWS S3 decodes and many S3-compatible stores keep as the object's bytes
 * (issue 51); `when_required` sends plain bodies, and Reverie gives each upload a Content-MD5 of its own instead.
 */
export const S3_CHECKSUM_MODES = ["when_required", "when_supported"] as const;
export type S3ChecksumMode = (typeof S3_CHECKSUM_MODES)[number];

export interface S3ConnectionOptions {
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  checksums: S3ChecksumMode;
}

export interface S3Connection {
  sdk: typeof import("@aws-sdk/client-s3");
  presign: typeof import("@aws-sdk/s3-request-presigner").getSignedUrl;
  client: S3Client;
}

/** The SDK and a client for these options, loaded on first use: the SDK takes a third of a second to load. */
export function lazyS3Connection(o: S3ConnectionOptions): () => Promise<S3Connection> {
  let loaded: Promise<S3Connection> | undefined;
  const calculation = o.checksums === "when_required" ? "WHEN_REQUIRED" : "WHEN_SUPPORTED";
  return () =>
    (loaded ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/s3-request-presigner")]).then(([sdk, presigner]) => ({
      sdk,
      presign: presigner.getSignedUrl,
      client: new sdk.S3Client({
        region: o.region,
        endpoint: o.endpoint,
        forcePathStyle: o.forcePathStyle,
        credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
        requestChecksumCalculation: calculation,
        responseChecksumValidation: calculation,
      }),
    })));
}

/** S3's Content-MD5 header: the store refuses a body that arrived different (BadDigest). */
export function contentMd5(body: Buffer): string {
  return crypto.createHash("md5").update(body).digest("base64");
}
