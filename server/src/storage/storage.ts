import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";
import { createLocalStorage } from "./local.storage.ts";
import { createS3Storage } from "./s3.storage.ts";

/**
 * Where media bytes live. Keys are opaque paths such as `u/12/uploads/<uuid>.jpg`; clients only ever
 * receive signed, expiring URLs made by `signedUrl`, never a key they could guess a neighbour's from.
 */
export interface MediaStorage {
  readonly kind: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** Copies a file from disk into storage (renders are written to temp files first). */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** A readable file path for ffmpeg: the file itself on local disk, a downloaded temp copy on S3. */
  toLocalFile(key: string, tmpDir: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** A URL anyone holding it may GET until it expires. */
  signedUrl(key: string, ttlSeconds?: number): Promise<string>;
  /** Local disk only: the file a signed URL names, or null when the signature is wrong or expired. */
  verifiedFile?(key: string, expires: number, sig: string): string | null;
}

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

export function createStorage(config: Config): MediaStorage {
  if (config.STORAGE === "s3") {
    if (!config.S3_BUCKET) throw new Error("STORAGE=s3 needs S3_BUCKET");
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      defaultTtl: config.MEDIA_URL_TTL_SECONDS,
    });
  }
  return createLocalStorage({
    root: path.join(config.dataDir, "media"),
    secret: mediaUrlSecret(config),
    defaultTtl: config.MEDIA_URL_TTL_SECONDS,
  });
}
