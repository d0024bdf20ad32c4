import type { Task } from "./generation.api.ts";

export interface MediaFile {
  url: string;
  /** the name the browser saves it under */
  name: string;
  kind: "video" | "image";
}

/**
 * The file extension a media URL serves: local URLs carry it in the signed `key` (`u/1/outputs/<uuid>.jpg`),
 * presigned S3 URLs at the end of the path. Null when neither names one.
 */
export function mediaExtension(url: string): string | null {
  const u = new URL(url, window.location.origin);
  const name = u.searchParams.get("key") ?? u.pathname;
  return /\.([a-z0-9]{2,5})$/i.exec(name)?.[1]?.toLowerCase() ?? null;
}

/** Every file a finished task made: its video, or each image of a batch, each with a name of its own. */
export function mediaFiles(task: Pick<Task, "id" | "video_url" | "image_urls">): MediaFile[] {
  if (task.video_url) return [{ url: task.video_url, name: `reverie-${task.id}.${mediaExtension(task.video_url) ?? "mp4"}`, kind: "video" }];
  const images = task.image_urls ?? [];
  return images.map((url, i) => ({
    url,
    name: `reverie-${task.id}${images.length > 1 ? `-${i + 1}` : ""}.${mediaExtension(url) ?? "jpg"}`,
    kind: "image" as const,
  }));
}

/** Saves each file in turn (a batch of images is several downloads, started one after another). */
export async function downloadFiles(files: MediaFile[]): Promise<void> {
  for (const [i, f] of files.entries()) {
    if (i > 0) await new Promise((r) => setTimeout(r, 300));
    const a = document.createElement("a");
    a.href = f.url;
    a.download = f.name;
    document.body.append(a);
    a.click();
    a.remove();
  }
}
