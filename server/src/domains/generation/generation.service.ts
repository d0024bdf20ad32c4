import crypto from "node:crypto";
import type { Config } from "../../config.ts";
import { ENGINE_LABELS, type AspectRatio, type EngineKind } from "../../contract/engines.ts";
import { isUniqueViolation, queryRows, sqlTransaction, type Db, type Tx } from "../../db/client.ts";
import { createSlots } from "../../db/slots.ts";
import type { ContentState } from "../../contract/moderation.ts";
import { ENDED_TASK_STATUSES, IMAGE_MODES, PHOTO_MODES, VIDEO_MODES, type GenerationMode, type TaskStatus } from "../../contract/generation.ts";
import { Prisma, type GenerationTask } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { GenerationQueue } from "./queue.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { TemplatesService } from "../templates/templates.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import { refuseBrokenPrompt } from "../screening/prompt-rules.ts";
import type { BlocklistService } from "../screening/blocklist.service.ts";
import { SCREENING_MESSAGES } from "../../contract/screening.ts";
import type { EngineLora, Resolution } from "./engines/engine.ts";
import type { Engines } from "./engines/registry.ts";
import type { DurationPointsBody, ImageBatchBody, PicVideoBody, RoleVideoBody } from "./generation.schema.ts";
import { publishProgress } from "./progress.ts";

/** SPEC.md §4 wording of each task status, as the API shows it. */
export const STATUS_TEXT: Record<TaskStatus, string> = {
  queued: "to be generated",
  running: "generating",
  succeeded: "generated successfully",
  failed: "generation failed",
  expired: "expired",
};

/** What the worker needs to render, resolved (and ownership-checked) at submit time. */
export interface TaskInput {
  imageKey?: string;
  videoKey?: string;
  audioKey?: string;
  prompt?: string;
  negativePrompt?: string;
  count?: number;
  aspect?: AspectRatio;
  /** Shown on the result, so the same settings can be run again. */
  seed?: number;
  strength?: number;
  /** The template's workflow on a GPU engine. */
  workflow?: string;
  params: Record<string, unknown>;
  sources: { image_id?: number; video_id?: number; audio_id?: number; role_id?: number };
  /** The caller's trained character model (role_id), checked usable at submit and again when the job runs. */
  lora?: EngineLora & { modelId: number };
}

/** The training domain's answer to "may this user generate with this model" (owner, trained, not taken down). */
export interface CharacterModels {
  loraFor(userId: number, modelId: number, strength?: number): Promise<EngineLora & { modelId: number }>;
  /** The model's cover photo upload, the reference picture of role videos. */
  coverUploadId(userId: number, modelId: number): Promise<number>;
}

/** How results of an engine that ignores character models are labelled. */
export const LORA_NOT_APPLIED = "character model not applied";

export interface TaskOutputs {
  mainKey: string;
  posterKey: string;
  extraKeys: string[];
  width: number;
  height: number;
}

/** The caller's balance as read with their session at the start of the request (docs/decisions/074). */
export interface KnownBalance {
  points: number;
  free_generations: number;
}

interface SubmitRequest {
  mode: GenerationMode;
  engine: EngineKind;
  templateId?: number;
  resolution?: Resolution;
  durationSec?: number;
  input: TaskInput;
  cost: number;
  idempotencyKey?: string;
  known?: KnownBalance;
}

export function createGenerationService(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  storage: MediaStorage;
  templates: TemplatesService;
  uploads: UploadsService;
  queue: GenerationQueue;
  engines: Engines;
  models: CharacterModels;
  /** The blocklist of taken-down media (issue 19): a matching output fails the task. */
  blocklist: Pick<BlocklistService, "blockedOutput">;
  /** Counts a submit against the caller's hourly limit (429 when over); refusals for want of credits are not counted. */
  countSubmit: (userId: number) => Promise<void>;
}) {
  const { db, config, credits, storage, templates, uploads, queue, engines } = deps;

  const isVideo = (mode: GenerationMode) => (VIDEO_MODES as readonly GenerationMode[]).includes(mode);
  /** A result not yet expired: one that never expires (kept for a creator page), or whose time has not come. */
  const unexpired = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });
  /** When a result finished (or taken off a creator page) now expires. */
  const resultExpiry = () => new Date(Date.now() + config.GENERATION_RESULT_TTL_HOURS * 3600_000);
  /** Charging transactions may hold at most half the pool; the rest stays free for reads and refusals. */
  const chargingSlot = createSlots(Math.floor(config.DB_POOL_SIZE / 2));

  /**
   * Credits for a request: per started block of GENERATION_PRICE_SECONDS at the resolution's rate, or per image,
   * times the template's price, times the engine's factor (GPU_PRICE_FACTOR for a GPU engine).
   */
  function price(o: { video: boolean; resolution: Resolution; durationSec: number; count: number; templatePrice: number; engine: EngineKind }): number {
    const factor = o.engine === "local" ? 1 : config.GPU_PRICE_FACTOR;
    if (!o.video) return o.count * config.IMAGE_CREDIT_PRICE * o.templatePrice * factor;
    const blocks = Math.ceil(o.durationSec / config.GENERATION_PRICE_SECONDS - 1e-9);
    const rate = o.resolution === "720P" ? config.GENERATION_PRICE_720P : config.GENERATION_PRICE_480P;
    return blocks * rate * o.templatePrice * factor;
  }

  /**
   * A task's label: its engine's, and where a character model was asked for but the engine cannot apply one (the
   * local engine has no model to load a LoRA into; GPU workflows bind it, decision 082), it says so.
   */
  function labelOf(t: { engine: string; input: unknown }): string {
    const base = ENGINE_LABELS[t.engine as EngineKind] ?? t.engine;
    const wantsModel = Boolean((t.input as Partial<TaskInput> | null)?.lora);
    return wantsModel && t.engine === "local" ? `${base}, ${LORA_NOT_APPLIED}` : base;
  }

  /** The engine a template renders with: its own, else GENERATION_ENGINE. */
  const engineOf = (template: { engine: string | null } | null): EngineKind => (template?.engine as EngineKind | null) ?? engines.defaultName;

  /** The controls every mode shares, as the task keeps them (a seed is drawn when none is given). */
  function controls(b: { negative_prompt?: string; seed?: number; strength?: number }, template: { workflow: string | null } | null) {
    return {
      negativePrompt: b.negative_prompt,
      seed: b.seed ?? crypto.randomInt(0, 2 ** 31),
      strength: b.strength,
      workflow: template?.workflow ?? undefined,
    };
  }

  /** The free-generation rule (docs/decisions/024): a free generation pays for a task of at most one 480P block. */
  function freeCovers(cost: number): boolean {
    return cost > 0 && cost <= config.GENERATION_PRICE_480P;
  }

  async function templateFor(templateId: number | undefined, accepts: readonly GenerationMode[]) {
    if (!templateId) return null;
    const t = await templates.get(templateId);
    if (!accepts.includes(t.mode)) throw HttpError.badRequest("This template cannot be used for this kind of generation");
    return t;
  }

  /** A role's reference picture and LoRA: the caller's own usable character model, or 404 / 400 with the reason. */
  async function role(userId: number, roleId: number, strength: number | undefined) {
    const lora = await deps.models.loraFor(userId, roleId, strength);
    // a usable model passed training's set review, which a screening-held cover forces (docs/decisions/140)
    const imageKey = (await uploads.own(userId, await deps.models.coverUploadId(userId, roleId), "image", { heldAllowed: true })).storageKey;
    return { lora, imageKey };
  }

  /**
   * Charges (or uses a free generation), creates the task and enqueues its job in one transaction. Every statement
   * in it is raw SQL on one pg connection: about 40 charged submits a second kept Prisma's interactive transaction
   * and query compiler at a tenth of the API thread, which cheap requests then waited behind (docs/decisions/226).
   */
  async function submit(userId: number, r: SubmitRequest): Promise<{ id: number; cost: number; status: string; paid_with: string }> {
    const answer = (t: Pick<GenerationTask, "id" | "cost" | "status" | "paidWith">) => ({ id: t.id, cost: t.cost, status: STATUS_TEXT[t.status], paid_with: t.paidWith });
    if (r.idempotencyKey) {
      const existing = await db.generationTask.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: r.idempotencyKey } } });
      if (existing) return answer(existing);
    }
    // sexual content involving minors is refused by the shared rule set before anything is charged (decision 141)
    refuseBrokenPrompt(r.input.prompt);
    // an engine that cannot take the job refuses it here, before anything is charged
    await engines.assertCanRun(r.engine, r.mode);
    // Cheap refusal first: the balance read with the session cannot pay, so no transaction is queued for, nor any
    // query made. That balance is the ledger's at a moment of this request, also when the login was kept in memory
    // (docs/decisions/221, 222). The conditional charge inside the transaction stays the guarantee for everything
    // this lets through.
    const k = r.known;
    if (k && r.cost > 0 && !(freeCovers(r.cost) && k.free_generations > 0) && k.points < r.cost) throw new HttpError(402, MSG.notEnoughCredits);
    await deps.countSubmit(userId);
    // start the queue (first submit of this process) before taking any lock
    await queue.ready();
    try {
      const task = await chargingSlot(() =>
        sqlTransaction(db, async (tx) => {
          const free = freeCovers(r.cost) && (await credits.useFreeGeneration(tx, userId));
          const jobId = crypto.randomUUID();
          const [created] = await queryRows<Pick<GenerationTask, "id" | "cost" | "status" | "paidWith">>(
            tx,
            Prisma.sql`INSERT INTO generation_tasks (user_id, job_id, mode, template_id, engine, cost, paid_with, idempotency_key, input, resolution, duration_sec, created_at)
              VALUES (${userId}, ${jobId}::uuid, ${r.mode}::"GenerationMode", ${r.templateId ?? null}, ${r.engine}, ${r.cost}, ${free ? "free" : "credits"}, ${r.idempotencyKey ?? null},
                ${JSON.stringify(r.input)}::jsonb, ${r.resolution ?? null}, ${r.durationSec ?? null}, (now() AT TIME ZONE 'UTC'))
              RETURNING id, cost, status, paid_with AS "paidWith"`,
          );
          if (!free && r.cost > 0) {
            await credits.charge({ userId, amount: r.cost, reason: "generation", reference: `task:${created!.id}`, idempotencyKey: `task:${created!.id}:charge` }, tx);
          }
          await queue.send(tx, created!.id, jobId);
          return created!;
        }),
      );
      return answer(task);
    } catch (err) {
      if (r.idempotencyKey && isUniqueViolation(err)) {
        const existing = await db.generationTask.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey: r.idempotencyKey } } });
        if (existing) return answer(existing);
      }
      throw err;
    }
  }

  /** The request that makes this task again with the same settings (seed included): "re-run with the same settings". */
  function settingsOf(t: GenerationTask) {
    const i = (t.input ?? {}) as Partial<TaskInput>;
    const src = i.sources ?? {};
    return {
      template_id: t.templateId,
      image_id: src.image_id,
      video_id: src.video_id,
      audio_id: src.audio_id,
      role_id: src.role_id,
      prompt: i.prompt,
      negative_prompt: i.negativePrompt,
      seed: i.seed,
      strength: i.strength,
      aspect: i.aspect,
      count: t.mode === "image_batch" ? i.count : undefined,
      resolution: t.resolution ?? undefined,
      duration: t.durationSec ?? undefined,
    };
  }

  /**
   * The studio's estimate from real figures: the average render time of the last finished tasks of this template (else
   * of this mode on this engine), the tasks queued ahead on the same engine, and how many of them run at once now.
   * Null when nothing has finished yet (the studio then says SPEC's "1-2 minutes").
   */
  async function estimate(t: GenerationTask): Promise<{ estimate_seconds: number | null; queue_position: number }> {
    const recent = (where: object) =>
      db.generationTask.findMany({ where: { engine: t.engine, status: { in: ["succeeded", "expired"] }, startedAt: { not: null }, finishedAt: { not: null }, ...where }, orderBy: { id: "desc" }, take: 50, select: { startedAt: true, finishedAt: true } });
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

  async function view(t: GenerationTask) {
    const lapsed = t.status === "succeeded" && t.expiresAt !== null && t.expiresAt.getTime() <= Date.now();
    const status: TaskStatus = lapsed ? "expired" : t.status;
    const ready = status === "succeeded";
    const outputs = (t.outputs ?? {}) as Partial<TaskOutputs>;
    const mainUrl = ready && t.outputKey ? await storage.signedUrl(t.outputKey) : null;
    const video = isVideo(t.mode);
    const extra = ready && outputs.extraKeys ? await Promise.all(outputs.extraKeys.map((k) => storage.signedUrl(k))) : [];
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
      video_url: video ? mainUrl : null,
      image_url: video ? null : mainUrl,
      image_urls: video || !mainUrl ? [] : [mainUrl, ...extra],
      poster_url: ready && t.posterKey ? await storage.signedUrl(t.posterKey) : null,
      width: ready ? (outputs.width ?? null) : null,
      height: ready ? (outputs.height ?? null) : null,
      msg: status === "failed" ? MSG.generationFailed : status === "running" || status === "queued" ? "A product still generating: try later" : null,
      expires_at: t.expiresAt?.toISOString() ?? null,
      public: t.isPublic ? 1 : 0,
      ...(status === "queued" || status === "running" ? await estimate(t) : { estimate_seconds: null, queue_position: 0 }),
    };
  }

  /** Only what everyone may see of a shared creation: no cost, engine or payment details. */
  async function publicView(t: GenerationTask & { user: { nickname: string | null } }) {
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
      nickname: t.user.nickname?.trim() || `User ${t.userId}`,
    };
  }

  /** Gives back what a task that just failed took: its free generation, or its credits through the ledger (once, by key). */
  async function giveBack(tx: Tx, taskId: number): Promise<GenerationTask> {
    const t = await tx.generationTask.findUniqueOrThrow({ where: { id: taskId } });
    if (t.paidWith === "free") {
      await credits.returnFreeGeneration(tx, t.userId);
    } else if (t.cost > 0) {
      await credits.refund({ userId: t.userId, amount: t.cost, reason: "generation_refund", reference: `task:${t.id}`, idempotencyKey: `task:${t.id}:refund` }, tx);
    }
    return t;
  }

  /**
   * Fails the task and gives back what it took, exactly once however often it is called. With `only`, only while that
   * attempt or that job still owns the task (a worker's last attempt; a dead-lettered job).
   */
  async function fail(taskId: number, error: string, only: { attempts?: number; jobId?: string | null } = {}): Promise<boolean> {
    const task = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: number }[]>`
        UPDATE generation_tasks SET status = 'failed', error = ${error.slice(0, 500)}, finished_at = now()
        WHERE id = ${taskId} AND status IN ('queued', 'running')
          AND (${only.attempts ?? null}::int IS NULL OR attempts = ${only.attempts ?? null}::int)
          AND (${only.jobId === undefined}::boolean OR job_id IS NOT DISTINCT FROM ${only.jobId ?? null}::uuid)
        RETURNING id`;
      if (!rows.length) return null;
      return giveBack(tx, taskId);
    });
    if (task) await publishProgress(db, { taskId, userId: task.userId, status: "failed", progress: task.progress });
    return task !== null;
  }

  async function own(userId: number, id: number) {
    const t = await db.generationTask.findFirst({ where: { id, userId, state: "active" } });
    if (!t) throw HttpError.notFound();
    return t;
  }

  return {
    /** What moderation may see and change of a task: the owner, and the visibility state (reports, takedowns). */
    moderated: {
      /** A task is public while shared in the gallery (and finished); a report's suspension keeps it so, a takedown does not. */
      find: async (c: Tx | Db, id: number) => {
        const t = await c.generationTask.findUnique({ where: { id }, select: { userId: true, state: true, isPublic: true, status: true } });
        return t && { userId: t.userId, state: t.state, isPublic: t.isPublic && t.status === "succeeded" && t.state !== "removed" };
      },
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) => (await c.generationTask.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
      /** The result a moderator previews (expired results have no file left). */
      media: async (c: Tx | Db, id: number) => {
        const t = await c.generationTask.findUnique({ where: { id }, select: { mode: true, outputKey: true, status: true } });
        return t?.outputKey && t.status === "succeeded" ? { key: t.outputKey, kind: isVideo(t.mode) ? ("video" as const) : ("image" as const) } : null;
      },
      /** A result's file or poster named in a pasted media link. */
      byMediaKey: async (c: Tx | Db, key: string) => (await c.generationTask.findFirst({ where: { OR: [{ outputKey: key }, { posterKey: key }] }, select: { id: true } }))?.id ?? null,
    },

    /** Guest merge (auth): the guest's tasks become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.generationTask.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    price,
    submit,
    view,
    own,

    async picVideo(userId: number, b: PicVideoBody, known?: KnownBalance) {
      if (!b.image_id && !b.video_id) throw HttpError.badRequest(MSG.choosePicture);
      const mode: GenerationMode = b.video_id ? "video_to_video" : b.audio_id ? "audio_overlay" : "image_to_video";
      const template = await templateFor(b.template_id, mode === "video_to_video" ? ["video_to_video"] : PHOTO_MODES);
      const input: TaskInput = {
        prompt: b.prompt,
        aspect: b.aspect,
        ...controls(b, template),
        params: (template?.engineParams as Record<string, unknown>) ?? {},
        sources: { image_id: b.image_id, video_id: b.video_id, audio_id: b.audio_id },
      };
      if (b.video_id) input.videoKey = (await uploads.own(userId, b.video_id, "video")).storageKey;
      else input.imageKey = (await uploads.own(userId, b.image_id!, "image")).storageKey;
      if (b.audio_id) input.audioKey = (await uploads.own(userId, b.audio_id, "audio")).storageKey;
      const engine = engineOf(template);
      const cost = price({ video: true, resolution: b.resolution, durationSec: b.duration, count: 1, templatePrice: template?.creditPrice ?? 1, engine });
      return submit(userId, { mode, engine, templateId: template?.id, resolution: b.resolution, durationSec: b.duration, input, cost, idempotencyKey: b.idempotency_key, known });
    },

    /** Video from a role's reference photo, or (textVideoSubmit without a role) from a prompt. */
    async roleOrTextVideo(userId: number, b: RoleVideoBody, requireRole: boolean, known?: KnownBalance) {
      if (requireRole ? !b.role_id : !b.role_id && !b.prompt) throw HttpError.badRequest(MSG.textOrRole);
      const mode: GenerationMode = b.role_id ? "role_video" : "text_to_video";
      const template = await templateFor(b.template_id, [...PHOTO_MODES, "text_to_video"]);
      const input: TaskInput = { prompt: b.prompt, aspect: b.aspect, ...controls(b, template), params: (template?.engineParams as Record<string, unknown>) ?? {}, sources: { role_id: b.role_id, audio_id: b.audio_id } };
      if (b.role_id) Object.assign(input, await role(userId, b.role_id, b.strength));
      if (b.audio_id) input.audioKey = (await uploads.own(userId, b.audio_id, "audio")).storageKey;
      const engine = engineOf(template);
      const cost = price({ video: true, resolution: b.resolution, durationSec: b.duration, count: 1, templatePrice: template?.creditPrice ?? 1, engine });
      return submit(userId, { mode, engine, templateId: template?.id, resolution: b.resolution, durationSec: b.duration, input, cost, idempotencyKey: b.idempotency_key, known });
    },

    /** `engine` overrides the template's (or default) engine: a character avatar asks for an AI one (aiEngineFor). */
    async images(userId: number, b: ImageBatchBody, batch: boolean, known?: KnownBalance, engineOverride?: EngineKind) {
      if (!b.prompt && !b.role_id && !b.image_id) throw HttpError.badRequest(MSG.textOrRole);
      const template = await templateFor(b.template_id, IMAGE_MODES);
      const count = batch ? (b.count ?? 4) : 1;
      const input: TaskInput = {
        prompt: b.prompt,
        count,
        aspect: b.aspect,
        ...controls(b, template),
        params: { aspect: b.aspect, ...((template?.engineParams as Record<string, unknown>) ?? {}) },
        sources: { role_id: b.role_id, image_id: b.image_id },
      };
      if (b.role_id) Object.assign(input, await role(userId, b.role_id, b.strength));
      else if (b.image_id) input.imageKey = (await uploads.own(userId, b.image_id, "image")).storageKey;
      const engine = engineOverride ?? engineOf(template);
      const cost = price({ video: false, resolution: "480P", durationSec: 0, count, templatePrice: template?.creditPrice ?? 1, engine });
      return submit(userId, { mode: batch ? "image_batch" : "text_to_image", engine, templateId: template?.id, input, cost, idempotencyKey: b.idempotency_key, known });
    },

    /**
     * An engine that paints `mode` with an image model: the default engine when it is one and can run now, else the
     * first other that can; null when only the local draft renderer (procedural pictures, not a model) could.
     */
    async aiEngineFor(mode: GenerationMode): Promise<EngineKind | null> {
      const fit = (await engines.statuses()).filter((s) => s.ai && s.available && s.modes.includes(mode));
      return (fit.find((s) => s.engine === engines.defaultName) ?? fit[0])?.engine ?? null;
    },

    /** The picture of one of the caller's finished, unexpired image tasks (404 when not theirs, 400 while not ready). */
    async imageOf(userId: number, id: number): Promise<string> {
      const t = await own(userId, id);
      if (!(IMAGE_MODES as readonly GenerationMode[]).includes(t.mode)) throw HttpError.notFound();
      const expired = t.expiresAt !== null && t.expiresAt.getTime() <= Date.now();
      if (t.status !== "succeeded" || expired || !t.outputKey) throw HttpError.badRequest(MSG.imageNotReady);
      return t.outputKey;
    },

    /** The price before submitting, for the engine the template (or the default) renders with. */
    async quote(b: DurationPointsBody) {
      const template = b.template_id ? await templates.get(b.template_id) : null;
      const engine = engineOf(template);
      const points = price({ video: b.type === "video", resolution: b.resolution, durationSec: b.duration, count: b.count, templatePrice: template?.creditPrice ?? 1, engine });
      // whether a free generation would pay for it, so the app shows "free video left" only where it applies
      return { points, resolution: b.resolution, duration: b.duration, count: b.count, engine, label: ENGINE_LABELS[engine], free_applies: freeCovers(points) };
    },

    async details(userId: number, id: number) {
      return view(await own(userId, id));
    },

    async list(userId: number, q: { page: number; limit: number; type?: "video" | "image"; finished?: number }) {
      const where = {
        userId,
        state: "active" as const,
        ...(q.type ? { mode: q.type === "video" ? { in: [...VIDEO_MODES] } : { notIn: [...VIDEO_MODES] } } : {}),
        ...(q.finished ? { status: "succeeded" as const, ...unexpired() } : {}),
      };
      const [total, rows] = await Promise.all([db.generationTask.count({ where }), db.generationTask.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit })]);
      return { list: await Promise.all(rows.map(view)), total, page: q.page, limit: q.limit };
    },

    /**
     * Removes one of the user's finished items from their results (the consumer's delete). A removed task leaves every
     * list and detail answer at once (they read only active tasks); its media stays in storage until the result's
     * normal expiry deletes it. A task still rendering cannot be removed (SPEC.md §4).
     */
    async remove(userId: number, id: number): Promise<void> {
      const removed = await db.generationTask.updateMany({
        where: { id, userId, state: "active", status: { in: [...ENDED_TASK_STATUSES] } },
        data: { state: "removed" },
      });
      if (removed.count === 1) {
        // a creation kept for a creator page leaves the page with it, so it expires like any other (decision 216)
        await db.generationTask.updateMany({ where: { id, expiresAt: null, status: "succeeded" }, data: { expiresAt: resultExpiry() } });
        return;
      }
      const task = await db.generationTask.findFirst({ where: { id, userId, state: "active" }, select: { status: true } });
      // another user's task, a removed one and a missing one all look the same
      if (!task) throw HttpError.notFound();
      throw HttpError.conflict(MSG.stillGenerating);
    },

    /** Shares a finished creation in the home gallery (or stops sharing it); only the owner's succeeded, active, unexpired tasks can be public. */
    async setPublic(userId: number, id: number, isPublic: boolean) {
      const changed = await db.generationTask.updateMany({
        where: { id, userId, state: "active", ...(isPublic ? { status: "succeeded" as const, ...unexpired() } : {}) },
        data: { isPublic },
      });
      if (changed.count === 0) {
        // another user's, a removed and a missing task look the same; the owner's unfinished or failed one is refused
        await own(userId, id);
        throw HttpError.conflict("Only a finished creation can be shared");
      }
      return { id, public: isPublic ? 1 : 0 };
    },

    /** The home gallery: shared, active, succeeded, unexpired creations, newest first. Suspended or removed content is filtered here, so a report takes it out at once. */
    async gallery(q: { page: number; limit: number }) {
      const where = { isPublic: true, state: "active" as const, status: "succeeded" as const, ...unexpired() };
      const [total, rows] = await Promise.all([
        db.generationTask.count({ where }),
        db.generationTask.findMany({ where, orderBy: { id: "desc" }, skip: (q.page - 1) * q.limit, take: q.limit, include: { user: { select: { nickname: true } } } }),
      ]);
      return { list: await Promise.all(rows.map(publicView)), total, page: q.page, limit: q.limit };
    },

    /**
     * The files of the user's finished, active, unexpired creations among `ids`, by task id (a creator page's library):
     * a creation suspended by a report, removed or expired drops out at once.
     */
    async finishedMedia(userId: number, ids: number[]): Promise<Map<number, { kind: "image" | "video"; key: string; posterKey: string | null }>> {
      if (!ids.length) return new Map();
      const rows = await db.generationTask.findMany({
        where: { id: { in: ids }, userId, state: "active", status: "succeeded", outputKey: { not: null }, ...unexpired() },
        select: { id: true, mode: true, outputKey: true, posterKey: true },
      });
      return new Map(rows.map((r) => [r.id, { kind: isVideo(r.mode) ? ("video" as const) : ("image" as const), key: r.outputKey!, posterKey: r.posterKey }]));
    },

    /**
     * What the console shows of creations published on creator pages (decision 215): each one's moderation state, its
     * status, and the picture to show (an image's file, a video's poster) while its files exist.
     */
    async previewsOf(ids: number[]): Promise<Map<number, { state: ContentState; status: string; thumbKey: string | null }>> {
      if (!ids.length) return new Map();
      const rows = await db.generationTask.findMany({ where: { id: { in: ids } }, select: { id: true, mode: true, state: true, status: true, outputKey: true, posterKey: true } });
      return new Map(rows.map((r) => [r.id, { state: r.state, status: r.status, thumbKey: r.status === "succeeded" ? (isVideo(r.mode) ? r.posterKey : r.outputKey) : null }]));
    },

    /**
     * What the console's engine status shows beside each engine's own report, from the tasks table (so it is the
     * same on every instance): tasks waiting and running per engine, and the average render time per template over
     * the last 7 days.
     */
    async engineFigures() {
      const [queue, renders] = await Promise.all([
        db.$queryRaw<{ engine: string; status: string; count: number }[]>`
          SELECT engine, status::text AS status, count(*)::int AS count FROM generation_tasks WHERE status IN ('queued', 'running') GROUP BY engine, status`,
        db.$queryRaw<{ template_id: number | null; engine: string; renders: number; avg_seconds: number }[]>`
          SELECT template_id, engine, count(*)::int AS renders, avg(extract(epoch FROM finished_at - started_at))::float8 AS avg_seconds
          FROM generation_tasks WHERE status IN ('succeeded', 'expired') AND started_at IS NOT NULL AND finished_at > now() - interval '7 days'
          GROUP BY template_id, engine ORDER BY renders DESC`,
      ]);
      return { queue, renders: renders.map((r) => ({ templateId: r.template_id, engine: r.engine, renders: r.renders, avgSeconds: Math.round(r.avg_seconds * 10) / 10 })) };
    },

    async freeGenerations(userId: number) {
      const left = await credits.freeGenerations(userId);
      if (left === null) throw HttpError.notFound();
      return { free_num: left, num: left };
    },

    // ---- worker side: every transition is conditional, so a job run twice changes nothing the second time ----

    /**
     * Marks the task generating for a new attempt by this job; null (the job is then a no-op) when the task ended, when
     * another job is now entitled to it (it was recovered from a dead worker), or when a live worker is still running it
     * (its heartbeat is fresh): one task never runs twice at once (docs/decisions/076).
     */
    async beginAttempt(taskId: number, jobId?: string): Promise<GenerationTask | null> {
      const rows = await db.$queryRaw<{ id: number }[]>`
        UPDATE generation_tasks SET status = 'running', attempts = attempts + 1, progress = 0, error = NULL, started_at = COALESCE(started_at, now()), heartbeat_at = now()
        WHERE id = ${taskId} AND job_id IS NOT DISTINCT FROM ${jobId ?? null}::uuid
          AND (status = 'queued' OR (status = 'running' AND (heartbeat_at IS NULL OR heartbeat_at < now() - make_interval(secs => ${config.GENERATION_STALE_SECONDS}))))
        RETURNING id`;
      if (!rows.length) return null;
      const t = await db.generationTask.findUniqueOrThrow({ where: { id: taskId } });
      await publishProgress(db, { taskId, userId: t.userId, status: t.status, progress: 0 });
      return t;
    },

    /** The running attempt is alive; false when it is no longer this attempt's to run (recovered, failed, cancelled by a ban). */
    async heartbeat(task: GenerationTask): Promise<boolean> {
      const n = await db.generationTask.updateMany({ where: { id: task.id, status: "running", attempts: task.attempts }, data: { heartbeatAt: new Date() } });
      return n.count === 1;
    },

    async reportProgress(task: GenerationTask, percent: number) {
      const n = await db.generationTask.updateMany({ where: { id: task.id, status: "running", attempts: task.attempts, progress: { lt: percent } }, data: { progress: percent } });
      if (n.count) await publishProgress(db, { taskId: task.id, userId: task.userId, status: "running", progress: percent });
    },

    /** Records the outputs; false when this attempt no longer owns the task (a duplicate or superseded run), in which case the caller discards its files. */
    async complete(task: GenerationTask, out: TaskOutputs): Promise<boolean> {
      // an output matching taken-down media is never delivered: the task fails and is refunded (decision 142)
      if (await deps.blocklist.blockedOutput(task.userId, task.id, [out.mainKey, ...out.extraKeys])) {
        await fail(task.id, SCREENING_MESSAGES.blocked, { attempts: task.attempts });
        return false;
      }
      const expiresAt = resultExpiry();
      const n = await db.generationTask.updateMany({
        where: { id: task.id, status: "running", attempts: task.attempts },
        data: { status: "succeeded", progress: 100, outputKey: out.mainKey, posterKey: out.posterKey, outputs: out as object, finishedAt: new Date(), expiresAt, error: null },
      });
      if (n.count) await publishProgress(db, { taskId: task.id, userId: task.userId, status: "succeeded", progress: 100 });
      return n.count === 1;
    },

    /** Back to "to be generated" while pg-boss waits to retry. */
    async retryLater(task: GenerationTask, error: string) {
      const n = await db.generationTask.updateMany({ where: { id: task.id, status: "running", attempts: task.attempts }, data: { status: "queued", progress: 0, error: error.slice(0, 500) } });
      if (n.count) await publishProgress(db, { taskId: task.id, userId: task.userId, status: "queued", progress: 0 });
    },

    /**
     * Running tasks whose worker went silent (killed, frozen, cut off) for GENERATION_STALE_SECONDS: each gets a new job
     * and its old job is cancelled, in one transaction, or is failed and refunded when its attempts are used up.
     * Every worker sweeps; the conditional update lets exactly one of them take each task.
     */
    async recoverStalled(): Promise<number> {
      const stale = await db.$queryRaw<{ id: number; attempts: number; job_id: string | null; user_id: number }[]>`
        SELECT id, attempts, job_id::text AS job_id, user_id FROM generation_tasks
        WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => ${config.GENERATION_STALE_SECONDS}) ORDER BY id LIMIT 100`;
      const message = "The worker running this generation stopped";
      let recovered = 0;
      for (const t of stale) {
        if (t.attempts > config.GENERATION_RETRY_LIMIT) {
          if (await fail(t.id, message, { attempts: t.attempts })) recovered++;
          continue;
        }
        const moved = await db.$transaction(async (tx) => {
          const jobId = crypto.randomUUID();
          const n = await tx.$executeRaw`
            UPDATE generation_tasks SET status = 'queued', progress = 0, job_id = ${jobId}::uuid, error = ${message}
            WHERE id = ${t.id} AND status = 'running' AND attempts = ${t.attempts}
              AND heartbeat_at < now() - make_interval(secs => ${config.GENERATION_STALE_SECONDS})`;
          if (!n) return false;
          await queue.send(tx, t.id, jobId);
          if (t.job_id) await queue.cancel(tx, t.job_id);
          await publishProgress(tx, { taskId: t.id, userId: t.user_id, status: "queued", progress: 0 });
          return true;
        });
        if (moved) recovered++;
      }
      return recovered;
    },

    fail,

    /**
     * A banned account's unfinished tasks are failed (and refunded) in the ban's transaction: a worker still rendering
     * one sees it at its next heartbeat and stops, and its result can no longer be recorded or delivered.
     */
    async cancelForAccount(tx: Tx, userId: number, error: string): Promise<void> {
      const rows = await tx.$queryRaw<{ id: number }[]>`
        UPDATE generation_tasks SET status = 'failed', error = ${error.slice(0, 500)}, finished_at = now()
        WHERE user_id = ${userId} AND status IN ('queued', 'running') RETURNING id`;
      for (const { id } of rows) {
        const t = await giveBack(tx, id);
        await publishProgress(tx, { taskId: id, userId, status: "failed", progress: t.progress });
      }
    },

    /**
     * A creation published on a creator page stops expiring while it is there (decision 216): its expiry is cleared,
     * which the expiry sweep never picks. Run in the creators domain's publishing transaction, so the library row and
     * the hold commit together; the conditional update takes the task's row lock, so it and the sweep's own update
     * cannot both win. False when the task is not the user's finished, active, unexpired creation.
     */
    async keepForPage(tx: Tx, userId: number, id: number): Promise<boolean> {
      const kept = await tx.generationTask.updateMany({
        where: { id, userId, state: "active", status: "succeeded", outputKey: { not: null }, ...unexpired() },
        data: { expiresAt: null },
      });
      return kept.count > 0;
    },

    /** Taken off its page (in the creators domain's transaction): the result expires like a fresh one, from now. */
    async releaseFromPage(tx: Tx, id: number): Promise<void> {
      await tx.generationTask.updateMany({ where: { id, expiresAt: null, status: "succeeded" }, data: { expiresAt: resultExpiry() } });
    },

    /** Results past GENERATION_RESULT_TTL_HOURS: marked expired and their files deleted. */
    async expireResults(limit = 100): Promise<number> {
      const now = new Date();
      const due = await db.generationTask.findMany({ where: { status: "succeeded", expiresAt: { lte: now } }, take: limit });
      let expired = 0;
      for (const t of due) {
        // the expiry is checked again in the update: a creation published meanwhile has none any more
        const n = await db.generationTask.updateMany({ where: { id: t.id, status: "succeeded", expiresAt: { lte: now } }, data: { status: "expired" } });
        if (!n.count) continue;
        expired++;
        const outputs = (t.outputs ?? {}) as Partial<TaskOutputs>;
        for (const key of [t.outputKey, t.posterKey, ...(outputs.extraKeys ?? [])]) if (key) await storage.delete(key).catch(() => undefined);
        await publishProgress(db, { taskId: t.id, userId: t.userId, status: "expired", progress: 100 });
      }
      return expired;
    },
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
