import { api } from "../../lib/api-client.ts";
import type { ScreeningStatus } from "../../../../server/src/contract/screening.ts";

/** Issue 4's upload calls. Every person-photo or video upload carries the uploader's consent attestation. */
export interface UploadResult {
  id: number;
  file_url: string;
  thumb_url?: string | null;
  /** Screening's decision (issue 19): a `held` upload waits for a moderator and cannot be used yet. */
  review?: ScreeningStatus | null;
  /** What to tell the person when it is held or rejected (English, translated by the app). */
  review_message?: string | null;
}

export function uploadImage(file: Blob, name: string): Promise<UploadResult> {
  const form = new FormData();
  form.append("consent", "1");
  form.append("file", file, name);
  return api.upload<UploadResult>("/api/ImageUpload/upload", form, { quiet: true });
}

export function uploadMedia(kind: "audio" | "video", file: File, trim: { start: number; end: number }): Promise<UploadResult> {
  const form = new FormData();
  form.append("consent", "1");
  form.append("start", trim.start.toFixed(2));
  form.append("end", trim.end.toFixed(2));
  form.append("file", file, file.name);
  return api.upload<UploadResult>(kind === "audio" ? "/api/ImageUpload/audioFromMedia" : "/api/ImageUpload/videoFromMedia", form, { quiet: true });
}
