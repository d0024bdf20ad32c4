import { ENGINE_LABELS, FAILED_INPUTS, type EngineKind, type FailedInput } from "../../contract/engines.ts";
import type { FollowUp, TaskStatus } from "../../contract/generation.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import { publicName } from "../creators/creators.pages.ts";
import { MSG } from "../../http/messages.ts";
import { followUpsOffered } from "./generation.follow-ups.ts";
import { isVideo, LORA_NOT_APPLIED, STATUS_TEXT, type GenerationDeps, type TaskInput, type TaskOutputs } from "./generation.task.ts";

/**
 * A task's label: its engine's, and where a character model was asked for but the engine cannot apply one (the
 * local engine has no model to load a LoRA into; GPU workflows bind it, decision 082), it says so.
 */
function labelOf(t: { engine: string; input: unknown }): string {
  const base = ENGINE_LABELS[t.engine as EngineKind] ?? t.engine;
  const wantsModel = Boolean((t.input as Partial<TaskInput> | null)?.lora);
  return wantsModel && t.engine === "local" ? `${base}, ${LORA_NOT_APPLIED}` : base;
}

/** The request that makes this task again with the same settings (seed included): "re-run with the same settings". */
function settingsOf(t: GenerationTask) {
  const i = (t.input ?? {}) as Partial<TaskInput>;
  const src = i.sources ?? {};
  return {
    template_id: t.templateId,
    image_id: src.image_id,
    end_image_id: src.end_image_id,
    video_id: src.video_id,
    audio_id: src.audio_id,
    role_id: src.role_id,
    prompt: i.prompt,
    negative_prompt: i.negativePrompt,
    seed: i.seed,
    strength: i.strength,
    aspect: i.aspect,
    camera: i.camera,
    count: t.mode === "image_batch" ? i.count : undefined,
    resolution: t.resolution ?? undefined,
    duration: t.durationSec ?? undefined,
  };
}

/** What a person is told when their own input failed a task (decision 335). */
const INPUT_MESSAGES = {
  lora: "loraFailed",
  image: "photoFailed",
  video: "videoInputFailed",
  audio: "audioInputFailed",
  value: "settingFailed",
} as const satisfies Record<FailedInput, keyof typeof MSG>;

const failedInputOf = (t: GenerationTask): FailedInput | undefined =>
  (FAILED_INPUTS as readonly string[]).includes(t.failedInput ?? "") ? (t.failedInput as FailedInput) : undefined;

/** How tasks are shown: to their owner in full, to everyone (the gallery) without cost, engine or payment details. */
export function createTaskViews({ db, storage, engines }: GenerationDeps) {
  /**
   * The studio's estimate from real figures: the average render time of the last finished tasks of this template (else
   * of this mode on this engine), the tasks queued ahead on the same engine, and how many of them run at once now.
   * Null when nothing has finished yet (the studio then says SPEC's "1-2 minutes").
   */
  async function estimate(t: GenerationTask): Promise<{ estimate_seconds: number | null; queue_position: number }> {
    const recent = (where: object) =>
      db.generationTask.findMany({
        where: { engine: t.engine, status: { in: ["succeeded", "expired"] }, startedAt: { not: null }, finishedAt: { not: null }, ...where },
        orderBy: { id: "desc" },
        take: 50,
        select: { startedAt: true, finishedAt: true },
      });
    let done = t.templateId ? await recent({ templateId: t.templateId }) : [];
    if (!done.length) done = await recent({ mode: t.mode });
    const [ahead, running] = await Promise.all([
      t.status === "queued" ? db.generationTask.count({ where: { engine: t.engine, status: "queued", id: { lt: t.id } } }) : Promise.resolve(0),
      db.generationTask.count({ where: { engine: t.engine, status: "running" } }),
    ]);
    if (!done.length) return { estimate_seconds: null, queue_position: ahead };
    const avg = done.reduce((sum, r) => sum + (r.finishedAt!.getTime() - r.startedAt!.getTime()), 0) / done.length / 1000;
    const seconds = t.status === "running" ? avg * (1 - t.progress / 100) : avg * (ahead / Math.max(1, running) + 1);
    return { estimate_seconds: Math.max(1, Math.round(seconds)), queue_position: ahead };
  }

  /** The result's files, signed, while it is ready. */
  async function mediaOf(t: GenerationTask, ready: boolean) {
    const outputs = (t.outputs ?? {}) as Partial<TaskOutputs>;
    const mainUrl = ready && t.outputKey ? await storage.signedUrl(t.outputKey) : null;
    const video = isVideo(t.mode);
    const extra = ready && outputs.extraKeys ? await Promise.all(outputs.extraKeys.map((k) => storage.signedUrl(k))) : [];
    return {
      video_url: video ? mainUrl : null,
      image_url: video ? null : mainUrl,
      image_urls: video || !mainUrl ? [] : [mainUrl, ...extra],
      poster_url: ready && t.posterKey ? await storage.signedUrl(t.posterKey) : null,
      width: ready ? (outputs.width ?? null) : null,
      height: ready ? (outputs.height ?? null) : null,
    };
  }

  /**
   * What the person reads of a failure: which of their own inputs failed it (decision 335), else the failure in their
   * mode's words; the true reason stays in the task's error for the console.
   */
  const failedMessage = (t: GenerationTask) =>
    failedInputOf(t) ? MSG[INPUT_MESSAGES[failedInputOf(t)!]] : isVideo(t.mode) ? MSG.generationFailed : MSG.generationFailedGeneric;

  async function view(t: GenerationTask) {
    const lapsed = t.status === "succeeded" && t.expiresAt !== null && t.expiresAt.getTime() <= Date.now();
    const status: TaskStatus = lapsed ? "expired" : t.status;
    return {
      id: t.id,
      created_at: t.createdAt.toISOString(),
      createtime: Math.floor(t.createdAt.getTime() / 1000),
      status: STATUS_TEXT[status],
      state: status,
      action: t.mode,
      progress: status === "succeeded" ? 100 : t.progress,
      cost: t.cost,
      paid_with: t.paidWith,
      resolution: t.resolution,
      duration: t.durationSec,
      template_id: t.templateId,
      engine: t.engine,
      label: labelOf(t),
      seed: (t.input as Partial<TaskInput> | null)?.seed ?? null,
      settings: settingsOf(t),
      ...(await mediaOf(t, status === "succeeded")),
      msg: status === "failed" ? failedMessage(t) : status === "running" || status === "queued" ? MSG.stillGenerating : null,
      expires_at: t.expiresAt?.toISOString() ?? null,
      public: t.isPublic ? 1 : 0,
      follow_up: (t.followUp as FollowUp | null) ?? null,
      follow_up_of: t.followUpOfId,
      follow_ups: status === "succeeded" ? await followUpsOffered(engines, t) : [],
      // its files carry the free-output watermark (decision 296): the app says why and where that is decided (issue 46 item 22)
      watermarked: status === "succeeded" && ((t.outputs ?? {}) as Partial<TaskOutputs>).mark != null,
      failed_input: status === "failed" ? (failedInputOf(t) ?? null) : null,
      ...(status === "queued" || status === "running" ? await estimate(t) : { estimate_seconds: null, queue_position: 0 }),
    };
  }

  /**
   * Only what everyone may see of a shared creation: no cost, engine, payment details or source files, and of its
   * owner only their public name (a creator's page title). `liked`: whether the caller has liked it.
   */
  async function publicView(t: GenerationTask & { user: Parameters<typeof publicName>[0] }, liked = false) {
    const main = t.outputKey ? await storage.signedUrl(t.outputKey) : null;
    const video = isVideo(t.mode);
    return {
      id: t.id,
      created_at: t.createdAt.toISOString(),
      createtime: Math.floor(t.createdAt.getTime() / 1000),
      action: t.mode,
      template_id: t.templateId,
      video_url: video ? main : null,
      image_url: video ? null : main,
      poster_url: t.posterKey ? await storage.signedUrl(t.posterKey) : null,
      nickname: publicName(t.user),
      likes: t.likeCount,
      liked: liked ? 1 : 0,
      remixes: t.remixCount,
    };
  }

  /** The settings "use these settings" fills in: the request's words and controls, never its photo, video, audio or model. */
  function remixSettings(t: GenerationTask) {
    const s = settingsOf(t);
    return {
      prompt: s.prompt,
      negative_prompt: s.negative_prompt,
      seed: s.seed,
      strength: s.strength,
      aspect: s.aspect,
      camera: s.camera,
      count: s.count,
      resolution: s.resolution,
      duration: s.duration,
    };
  }

  return { view, publicView, remixSettings };
}
