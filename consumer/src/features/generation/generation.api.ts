import { api, requestHeaders, withTimestamp } from "../../lib/api-client.ts";

/** Issue 4's generation calls (SPEC.md §7 "Generation", served under /api/Generation/). */

export type VideoMode = "image_to_video" | "audio_overlay" | "video_to_video";
export type ImageMode = "text_to_image" | "image_batch";
export type Mode = VideoMode | ImageMode;
export type Resolution = "480P" | "720P";

/** SPEC.md §8 texts the creating screens react to. */
export const NOT_ENOUGH_CREDITS = "Please get points first";
export const TEXT_OR_ROLE = "Please enter the text or select the role";

/** SPEC.md §4 task states, in the API's own words. */
export const TASK_STATUS = {
  queued: "to be generated",
  running: "generating",
  succeeded: "generated successfully",
  failed: "generation failed",
  expired: "expired",
} as const;

export type TaskStatusKey = keyof typeof TASK_STATUS | "unknown";

export function statusKey(status: string): TaskStatusKey {
  const hit = (Object.entries(TASK_STATUS) as Array<[TaskStatusKey, string]>).find(([, words]) => words === status);
  return hit ? hit[0] : "unknown";
}

export function isFinished(status: string): boolean {
  const key = statusKey(status);
  return key === "succeeded" || key === "failed" || key === "expired";
}

export interface Task {
  id: number;
  mode?: Mode;
  status: string;
  progress: number;
  cost: number;
  /** credits given back when the task failed */
  refunded?: number;
  video_url?: string | null;
  poster_url?: string | null;
  image_urls?: string[];
  created_at?: string | number;
  resolution?: string;
  duration?: number;
  estimate_seconds?: number;
  template_name?: string | null;
  is_public?: boolean;
  /** "local draft" when the CPU engine made it (ARCHITECTURE.md §6) */
  label?: string;
}

export const LOCAL_DRAFT = "local draft";

export interface TaskPage {
  list: Task[];
  total: number;
}

export interface VideoRequest {
  mode: VideoMode;
  image_id?: number;
  audio_id?: number;
  video_id?: number;
  template_id?: number;
  resolution: Resolution;
  duration: number;
  idempotency_key: string;
}

export interface ImageRequest {
  mode: ImageMode;
  prompt: string;
  count?: number;
  idempotency_key: string;
}

export async function durationPoints(input: { mode: Mode; resolution?: Resolution; duration?: number; template_id?: number; count?: number }): Promise<number> {
  const data = await api.post<{ points: number } | number>("/api/Generation/getDurationPoints", input, { quiet: true });
  return typeof data === "number" ? data : data.points;
}

export function submitVideo(input: VideoRequest): Promise<{ id: number }> {
  return api.post<{ id: number }>("/api/Generation/picVideoSubmit", input, { quiet: true });
}

export function submitImages(input: ImageRequest): Promise<{ id: number }> {
  const path = input.mode === "image_batch" ? "/api/Generation/imageBatchModel" : "/api/Generation/textPicSubmit";
  return api.post<{ id: number }>(path, input, { quiet: true });
}

export function taskDetails(id: number): Promise<Task> {
  return api.get<Task>("/api/Generation/picVideoSubmitDetails", { query: { id }, quiet: true });
}

export function taskList(page: number, limit: number, type?: "video" | "image"): Promise<TaskPage> {
  return api.get<TaskPage>("/api/Generation/uploadLists", { query: { page, limit, type } });
}

export function deleteTask(id: number): Promise<unknown> {
  return api.post("/api/Generation/deleteTask", { id });
}

/**
 * Live progress of one task over Server-Sent Events. EventSource cannot send the `token` header, so the stream
 * is read with fetch; each `data:` line is the task as picVideoSubmitDetails answers it. Resolves when the
 * stream ends; throws when it cannot be opened (the caller then polls instead).
 */
export async function streamTaskProgress(id: number, onTask: (task: Partial<Task>) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(withTimestamp(`/api/Generation/events/${id}`), { headers: { ...requestHeaders(), Accept: "text/event-stream" }, signal, cache: "no-store" });
  if (!res.ok || !res.body || !res.headers.get("content-type")?.includes("text/event-stream")) throw new Error(`progress stream unavailable (${res.status})`);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (!data) continue;
      try {
        onTask(JSON.parse(data) as Partial<Task>);
      } catch {
        // a malformed event is skipped; the next one carries the full state again
      }
    }
  }
}
