/** The storage interface alone, so storage.ts (which picks an adapter) and the adapters do not import each other. */
import type { Readable } from "node:stream";

/** Bytes `start` to `end` of a file, both included (as HTTP ranges count them). */
export interface ByteRange {
  start: number;
  end: number;
}

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
  /** The file's size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** The file's bytes as a stream: all of them, or `start` to `end` inclusive (one HTTP range, storage/serve.ts). */
  stream(key: string, range?: ByteRange): Promise<Readable>;
  /** A readable file path for ffmpeg: the file itself on local disk, a downloaded temp copy on S3. */
  toLocalFile(key: string, tmpDir: string): Promise<string>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * A URL anyone holding it may GET until it expires; with `downloadAs`, the browser saves it under that file name
   * (Content-Disposition: attachment) instead of the key's.
   */
  signedUrl(key: string, ttlSeconds?: number, downloadAs?: string): Promise<string>;
  /**
   * The same, for a server outside the browser (a trainer, a GPU server) that fetches it: always absolute. Browser
   * URLs of local media are relative so that any host name works (decision 066); those servers need PUBLIC_URL's.
   */
  fetchableUrl(key: string, ttlSeconds?: number): Promise<string>;
  /** Whether this process can reach the store now (the bucket answers; the media folder is writable), for readiness. */
  reachable(): Promise<boolean>;
  /** Local disk only: the file a signed URL names, or null when the signature is wrong or expired. */
  verifiedFile?(key: string, expires: number, sig: string): string | null;
}
