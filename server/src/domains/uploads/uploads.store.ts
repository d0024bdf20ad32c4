import crypto from "node:crypto";
import type { Db } from "../../db/client.ts";
import type { UploadKind } from "../../db/generated/enums.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { ScreeningVerdict, UploadScreener } from "../screening/screening.service.ts";
import type { UploadReads } from "./uploads.reads.ts";

/** A file of an upload: its bytes, or the path of a file written to a temp dir. The first is the upload, a second its thumbnail. */
export interface StoredFile {
  key: string;
  data: Buffer | string;
  mime: string;
}

/** The upload row's columns besides its owner, kind and files. */
export interface UploadRow {
  mime: string;
  sizeBytes: number;
  width?: number;
  height?: number;
  durationMs?: number;
  trimStartMs?: number;
  trimEndMs?: number;
  sha256: string;
  consentAt: Date | null;
}

/** WebCrypto hashes on libuv's thread pool: a 100 MB video is not hashed on the thread that answers requests. */
export const sha = async (b: Buffer) => Buffer.from(await crypto.subtle.digest("SHA-256", b)).toString("hex");

export function createUploadStore(db: Db, storage: MediaStorage, screener: UploadScreener, view: UploadReads["view"]) {
  /** Stores the files, then the row and its screening record in one transaction (an upload never exists unscreened). */
  return async function store(userId: number, kind: UploadKind, files: StoredFile[], row: UploadRow, verdict: ScreeningVerdict | null) {
    for (const f of files) {
      if (typeof f.data === "string") await storage.putFile(f.key, f.data, f.mime);
      else await storage.put(f.key, f.data, f.mime);
    }
    const created = await db.$transaction(async (tx) => {
      const u = await tx.upload.create({ data: { userId, kind, storageKey: files[0].key, thumbKey: files[1]?.key ?? null, ...row } });
      if (verdict) await screener.record(tx, u.id, userId, verdict);
      return u;
    });
    return view({ ...created, screening: verdict && { status: verdict.status } });
  };
}

export type StoreUpload = ReturnType<typeof createUploadStore>;
