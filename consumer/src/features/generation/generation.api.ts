import type { GenerationMode, ImageMode, Resolution, StudioMode } from "../../../../server/src/contract/generation.ts";
import { api, requestHeaders, withTimestamp } from "../../lib/api-client.ts";

/** Issue 4's generation calls (SPEC.md §7 "Generation", served under /api/Generation/). */


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

export function statusKey(task: Pick<Task, "status" | "state">): TaskStatusKey {
  if (task.state && task.state in TASK_STATUS) return task.state;
  const status = task.status;
  const hit = (Object.entries(TASK_STATUS) as Array<[TaskStatusKey, string]>).find(([, words]) => words === status);
  return hit ? hit[0] : "unknown";
}

export function isFinished(task: Pick<Task, "status" | "state">): boolean {
  const key = statusKey(task);
  return key === "succeeded" || key === "failed" || key === "expired";
}

export interface Task {
  id: number;
  /** the mode, in the list's "action" column */
  action?: GenerationMode;
  status: string;
  /** the status as a key: queued, running, succeeded, failed, expired */
  state?: TaskStatusKey;
  progress: number;
  cost: number;
  /** "credits" or "free" (a free generation, given back as one when the task fails) */
  paid_with?: string;
  video_url?: string | null;
  poster_url?: string | null;
  image_urls?: string[];
  created_at?: string;
  resolution?: string;
  duration?: number;
  estimate_seconds?: number;
  /** "local draft" when the CPU engine made it (ARCHITECTURE.md §6) */
  label?: string;
  /** 1 while shared in the home gallery */
  public?: 0 | 1;
}

export const LOCAL_DRAFT = "local draft";

export interface TaskPage {
  list: Task[];
  total: number;
}

/** The server tells the three video modes apart by which inputs are given (image; image + audio; video). */
export interface VideoRequest {
  image_id?: number;
  audio_id?: number;
  video_id?: number;
  template_id?: number;
  resolution: Resolution;
  duration: number;
  idempotency_key: string;
}

export interface ImageRequest {
  prompt: string;
  count?: number;
  idempotency_key: string;
}

export interface PriceRequest {
  type: "video" | "image";
  resolution?: Resolution;
  duration?: number;
  template_id?: number;
  count?: number;
}

export async function durationPoints(input: PriceRequest): Promise<number> {
  return (await api.post<{ points: number }>("/api/Generation/getDurationPoints", input, { quiet: true })).points;
}

export async function freeGenerations(): Promise<number> {
  return (await api.get<{ free_num: number }>("/api/ImageUpload/user_free_num", { quiet: true })).free_num;
}

export function submitVideo(input: VideoRequest): Promise<{ id: number }> {
  return api.post<{ id: number }>("/api/Generation/picVideoSubmit", input, { quiet: true });
}

export function submitImages(mode: ImageMode, input: ImageRequest): Promise<{ id: number }> {
  const path = mode === "image_batch" ? "/api/Generation/imageBatchModel" : "/api/Generation/textPicSubmit";
  return api.post<{ id: number }>(path, input, { quiet: true });
}

export function taskDetails(id: number): Promise<Task> {
  return api.get<Task>("/api/Generation/picVideoSubmitDetails", { query: { id }, quiet: true });
}

export function taskList(page: number, limit: number, type?: "video" | "image"): Promise<TaskPage> {
  return api.get<TaskPage>("/api/Generation/uploadLists", { query: { page, limit, type } });
}

/** Shares a finished creation in the home gallery, or makes it private again. */
export function setTaskPublic(id: number, isPublic: boolean): Promise<{ id: number; public: 0 | 1 }> {
  return api.post("/api/Generation/setPublic", { id, public: isPublic ? 1 : 0 });
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
  const res = await fetch(withTimestamp("/api/Generation/progress", { id }), { headers: { ...requestHeaders(), Accept: "text/event-stream" }, signal, cache: "no-store" });
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
