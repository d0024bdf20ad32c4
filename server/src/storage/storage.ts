import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { createLocalStorage } from "./local.storage.ts";
import type { S3ChecksumMode } from "./s3.client.ts";
import { createS3Storage, type S3Storage } from "./s3.storage.ts";
import type { MediaStorage } from "./media-storage.ts";

export type { ByteRange, MediaStorage } from "./media-storage.ts";

/** A fresh key under the owner's prefix; the random part is what makes URLs unguessable even unsigned. */
export function mediaKey(userId: number | "site", folder: string, ext: string): string {
  const owner = userId === "site" ? "site" : `u/${userId}`;
  return `${owner}/${folder}/${crypto.randomUUID()}.${ext}`;
}

/** The HMAC key for local media URLs: configured, or created once and kept with the data. */
export function mediaUrlSecret(config: Config): string {
  if (config.MEDIA_URL_SECRET) return config.MEDIA_URL_SECRET;
  const file = path.join(config.dataDir, "media.secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      // another process created it first: use theirs so both sign alike
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}

/** S3_CHECKSUMS, or its default: AWS decodes the SDK's aws-chunked uploads, other stores may keep the framing as data. */
export function s3ChecksumMode(config: Config): S3ChecksumMode {
  return config.S3_CHECKSUMS ?? (config.S3_ENDPOINT ? "when_required" : "when_supported");
}

/** The S3 back end STORAGE=s3 configures (also for `npm run storage:repair`). */
export function s3StorageOf(config: Config): S3Storage {
  if (!config.S3_BUCKET) throw new Error("STORAGE=s3 needs S3_BUCKET");
  return createS3Storage({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    checksums: s3ChecksumMode(config),
    defaultTtl: config.MEDIA_URL_TTL_SECONDS,
  });
}

export function createStorage(config: Config): MediaStorage {
  if (config.STORAGE === "s3") return s3StorageOf(config);
  return createLocalStorage({
    root: path.join(config.dataDir, "media"),
    secret: mediaUrlSecret(config),
    defaultTtl: config.MEDIA_URL_TTL_SECONDS,
    publicUrl: config.publicUrl,
  });
}
