import type { Db } from "../../db/client.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { UploadScreener } from "../screening/screening.service.ts";
import { createImageUploads } from "./uploads.images.ts";
import { createMediaUploads } from "./uploads.media.ts";
import { createUploadReads } from "./uploads.reads.ts";
import { createUploadStore } from "./uploads.store.ts";

export { checkedImage, IMAGE_KINDS, LIMITS, normaliseImage, VIDEO_KINDS, withProbedMedia, type IncomingFile } from "./uploads.checks.ts";
export type { UploadView } from "./uploads.reads.ts";

/** A person's uploads (SPEC.md §5): the use cases of this folder, wired together. */
export function createUploadsService(db: Db, storage: MediaStorage, screener: UploadScreener) {
  const reads = createUploadReads(db, storage);
  const store = createUploadStore(db, storage, screener, reads.view);
  return { ...reads, ...createImageUploads(storage, screener, store), ...createMediaUploads(storage, screener, store, reads.own) };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
