import type { FollowUp, GenerationMode, ImageMode, Resolution } from "../../../../server/src/contract/generation.ts";
import { api, readEvents, requestHeaders, withTimestamp, type ApiData, type ApiEvent, type ApiPath } from "../../lib/api-client.ts";
import type { CameraMove, STUDIO_ASPECTS, StudioControl, WorkflowTier } from "../../../../server/src/contract/engines.ts";

/** Issue 4's generation calls (SPEC.md §7 "Generation", served under /api/Generation/). */

/** SPEC.md §8 texts the creating screens react to. */
export const NOT_ENOUGH_CREDITS = "Please get points first";
export const TEXT_OR_ROLE = "Please enter the text or select the role";
/** a video submit that got no answer of its own (network, time-out, 5xx); a task that fails later says generationFailed */
export const VIDEO_SUBMIT_FAILED = "Failed to generate video";

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

/** One generation task, as picVideoSubmitDetails answers it. */
export type Task = ApiData<"/api/Generation/picVideoSubmitDetails", "get">;

export const LOCAL_DRAFT = "local draft";

export type TaskPage = ApiData<"/api/Generation/uploadLists", "get">;

/** The server tells the three video modes apart by which inputs are given (image; image + audio; video). */
export interface VideoRequest {
  image_id?: number;
  /** image to video: a second photo the video moves to (a transition), where the engine takes one */
  end_image_id?: number;
  /** image to video: a camera move, where the engine takes one */
  camera?: CameraMove;
  audio_id?: number;
  video_id?: number;
  template_id?: number;
  resolution: Resolution;
  duration: number;
  /** image to video: how the picture should move (where the engine honours a prompt) */
  prompt?: string;
  aspect?: Aspect;
  negative_prompt?: string;
  seed?: number;
  /** video to video: how far the result may move from the source, 0..1 */
  strength?: number;
  /** the gallery item whose settings were used ("use these settings"), credited as the source */
  remix_of?: number;
  /** best or fast, where the quote offers both (issue 45) */
  tier?: WorkflowTier;
  idempotency_key: string;
}

export interface ImageRequest {
  prompt?: string;
  /** the person's own trained character model (getLoraCharacterList) */
  role_id?: number;
  /** a reference picture (image to image), where the engine takes one */
  image_id?: number;
  count?: number;
  aspect?: Aspect;
  strength?: number;
  negative_prompt?: string;
  seed?: number;
  remix_of?: number;
  idempotency_key: string;
}

export { STUDIO_ASPECTS as ASPECTS } from "../../../../server/src/contract/engines.ts";
export type Aspect = (typeof STUDIO_ASPECTS)[number];

export interface PriceRequest {
  type: "video" | "image";
  /** the mode the submit will use: it picks the workflow, whose cost class sets the price */
  mode?: GenerationMode;
  resolution?: Resolution;
  duration?: number;
  template_id?: number;
  count?: number;
  /** a second photo or a camera move: the workflow that takes it prices the request */
  end_image_id?: number;
  camera?: CameraMove;
  /** video to video with the person's photo: its motion copied onto the photo, priced by the workflow that does it */
  image_id?: number;
  /** the tier the submit will ask for; the quote prices each tier it has (issue 45) */
  tier?: WorkflowTier;
  /** the person's own character model: quoted as it will run, on a workflow of its model family, where one does */
  role_id?: number;
}

/**
 * The server's price of a request, whether a free generation would pay for it (its rule, not the app's), whether
 * the engine can run it now (a submit would be refused), how its results are labelled ("local draft"), and what it
 * lacks for its template's pinned workflow (decision 315).
 */
export type Quote = Pick<
  ApiData<"/api/Generation/getDurationPoints", "post">,
  "points" | "free_applies" | "available" | "reason" | "controls" | "label" | "misfit" | "required" | "tiers"
>;

export async function durationPoints(input: PriceRequest): Promise<Quote> {
  const { points, free_applies, available, reason, controls, label, misfit, required, tiers } = await api.post("/api/Generation/getDurationPoints", input, {
    quiet: true,
  });
  return { points, free_applies, available, reason, controls, label, misfit, required, tiers };
}

/** Whether the quoted engine honours a control; none is shown before the quote arrives (decision 273). */
export const honours = (quote: Quote | null, control: StudioControl): boolean => quote?.controls.includes(control) ?? false;

export async function freeGenerations(): Promise<number> {
  return (await api.get("/api/ImageUpload/user_free_num", { quiet: true })).free_num;
}

type Submitted = ApiData<"/api/Generation/picVideoSubmit", "post">;

export function submitVideo(input: VideoRequest): Promise<Submitted> {
  return api.post("/api/Generation/picVideoSubmit", input, { quiet: true });
}

/** A video of the person's own character model (`role_id`): its cover starts the video, its LoRA keeps the likeness. */
export function submitRoleVideo(input: Omit<VideoRequest, "image_id" | "video_id" | "strength"> & { role_id: number }): Promise<Submitted> {
  return api.post(SUBMIT_PATH.role_video, input, { quiet: true });
}

/** A video from words alone (text to video): the engine draws the opening picture from the prompt. */
export function submitTextVideo(input: Omit<VideoRequest, "image_id" | "video_id" | "audio_id" | "strength"> & { prompt: string }): Promise<Submitted> {
  return api.post(SUBMIT_PATH.text_to_video, input, { quiet: true });
}

/** The submit call of each mode, as the task's `action` names it (roles and prompts have their own). */
const SUBMIT_PATH: Record<string, ApiPath<"post">> = {
  image_to_video: "/api/Generation/picVideoSubmit",
  audio_overlay: "/api/Generation/picVideoSubmit",
  video_to_video: "/api/Generation/picVideoSubmit",
  role_video: "/api/Generation/roleVideoSubmit",
  text_to_video: "/api/Generation/textVideoSubmit",
  text_to_image: "/api/Generation/generativeModel",
  image_batch: "/api/Generation/imageBatchModel",
};

/** "Re-run with the same settings": the task's own request (seed included) sent again as a new task. */
export function rerunTask(task: Pick<Task, "action" | "settings">, idempotency_key: string): Promise<Submitted> {
  const body = Object.fromEntries(Object.entries(task.settings ?? {}).filter(([, v]) => v !== null && v !== undefined));
  return api.post(SUBMIT_PATH[task.action ?? ""] ?? SUBMIT_PATH.text_to_image, { ...body, idempotency_key }, { quiet: true });
}

export function submitImages(mode: ImageMode, input: ImageRequest): Promise<Submitted> {
  const path = mode === "image_batch" ? "/api/Generation/imageBatchModel" : "/api/Generation/textPicSubmit";
  return api.post(path, input, { quiet: true });
}

export function taskDetails(id: number): Promise<Task> {
  return api.get("/api/Generation/picVideoSubmitDetails", { query: { id }, quiet: true });
}

export function taskList(page: number, limit: number, type?: "video" | "image"): Promise<TaskPage> {
  return api.get("/api/Generation/uploadLists", { query: { page, limit, type } });
}

/** Shares a finished creation in the home gallery, or makes it private again. */
export function setTaskPublic(id: number, isPublic: boolean): Promise<ApiData<"/api/Generation/setPublic", "post">> {
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
  const res = await fetch(withTimestamp("/api/Generation/progress", { id }), {
    headers: { ...requestHeaders(), Accept: "text/event-stream" },
    signal,
    cache: "no-store",
  });
  if (!res.ok || !res.body || !res.headers.get("content-type")?.includes("text/event-stream")) throw new Error(`progress stream unavailable (${res.status})`);
  await readEvents(res.body, (event, data) => {
    // `reconnect`: the server is stopping and ends the stream; the caller polls on until the task is done
    if (event !== "progress") return;
    try {
      onTask(JSON.parse(data) as ApiEvent<"/api/Generation/progress", "get">);
    } catch {
      // a malformed event is skipped; the next one carries the full state again
    }
  });
}

/** A follow-up of a finished result (decision 307): extend its clip by `duration` seconds, or make it 1080p. */
export interface FollowUpRequest {
  source_id: number;
  kind: FollowUp;
  duration?: number;
}

export type FollowUpQuote = ApiData<"/api/Generation/followUpPoints", "post">;

/** The price of a follow-up and whether it can run now (else `reason`, a server message to translate). */
export function followUpQuote(input: FollowUpRequest): Promise<FollowUpQuote> {
  return api.post("/api/Generation/followUpPoints", input, { quiet: true });
}

export function submitFollowUp(input: FollowUpRequest & { idempotency_key: string }): Promise<Submitted> {
  return api.post("/api/Generation/followUpSubmit", input, { quiet: true });
}
