import type { UploadKind } from "../../../../server/src/contract/uploads.ts";
import { api, type ApiData } from "../../lib/api-client.ts";

/**
 * Issue 4's upload calls. Every upload of people carries the uploader's consent attestation — as they gave it: the
 * caller passes the box's state, and an unticked box sends none (the server refuses the upload; issue 46 item 2).
 */
export type UploadResult = ApiData<"/api/ImageUpload/upload", "post">;

/**
 * Uploads of this page run at most this many at once, the rest wait their turn here: the server refuses an account's
 * uploads beyond UPLOADS_AT_ONCE_PER_ACCOUNT (default 4) rather than let them hold everyone's (docs/decisions/252).
 */
const AT_ONCE = 3;
let running = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(send: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await send();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** One of the person's uploads (a picture kept from chat to start a video from). */
export const uploadDetails = (id: number): Promise<UploadResult> => api.get("/api/ImageUpload/uploadDetails2", { query: { id }, quiet: true });

export function uploadImage(file: Blob, name: string, consent: boolean): Promise<UploadResult> {
  const form = new FormData();
  if (consent) form.append("consent", "1");
  form.append("file", file, name);
  return inTurn(() => api.upload("/api/ImageUpload/upload", form, { quiet: true }));
}

export function uploadMedia(kind: "audio" | "video", file: File, trim: { start: number; end: number }, consent: boolean): Promise<UploadResult> {
  const form = new FormData();
  if (consent) form.append("consent", "1");
  form.append("start", trim.start.toFixed(2));
  form.append("end", trim.end.toFixed(2));
  form.append("file", file, file.name);
  return inTurn(() => api.upload(kind === "audio" ? "/api/ImageUpload/audioFromMedia" : "/api/ImageUpload/videoFromMedia", form, { quiet: true }));
}

/** The caller's own earlier uploads of a kind, newest first (photos by imageList, audio and video by uploadList). */
export async function earlierUploads(kind: UploadKind): Promise<UploadResult[]> {
  const page =
    kind === "image"
      ? await api.get("/api/ImageUpload/imageList", { query: { page: 1, limit: 10 }, quiet: true })
      : await api.get("/api/ImageUpload/uploadList", { query: { page: 1, limit: 10, type: kind }, quiet: true });
  return page.list;
}
