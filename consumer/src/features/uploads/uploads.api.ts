import { api, type ApiData } from "../../lib/api-client.ts";

/** Issue 4's upload calls. Every person-photo or video upload carries the uploader's consent attestation. */
export type UploadResult = ApiData<"/api/ImageUpload/upload", "post">;

export function uploadImage(file: Blob, name: string): Promise<UploadResult> {
  const form = new FormData();
  form.append("consent", "1");
  form.append("file", file, name);
  return api.upload("/api/ImageUpload/upload", form, { quiet: true });
}

export function uploadMedia(kind: "audio" | "video", file: File, trim: { start: number; end: number }): Promise<UploadResult> {
  const form = new FormData();
  form.append("consent", "1");
  form.append("start", trim.start.toFixed(2));
  form.append("end", trim.end.toFixed(2));
  form.append("file", file, file.name);
  return api.upload(kind === "audio" ? "/api/ImageUpload/audioFromMedia" : "/api/ImageUpload/videoFromMedia", form, { quiet: true });
}
