import { ENGINE_LABELS, type EngineKind, type WorkflowTier } from "../../contract/engines.ts";
import { EXTENDABLE_MODES, UPSCALE_SHORT_SIDE, type FollowUp, type GenerationMode } from "../../contract/generation.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { Resolution } from "./engines/engine.ts";
import type { Engines } from "./engines/registry.ts";
import { type FollowUpBody, MAX_DURATION_SEC } from "./generation.schema.ts";
import type { Pricing } from "./generation.pricing.ts";
import type { createSubmit } from "./generation.submit.ts";
import { isVideo, type GenerationDeps, type KnownBalance, type TaskInput, type TaskOutputs } from "./generation.task.ts";

type Ask = Pick<FollowUpBody, "source_id" | "kind" | "duration" | "tier">;

/** What a follow-up will make: its task's mode, input, length and price, and why it cannot run now (null when it can). */
interface Plan {
  mode: GenerationMode;
  engine: EngineKind;
  resolution: Resolution;
  durationSec?: number;
  input: TaskInput;
  cost: number;
  extendSec: number;
  maxExtend: number;
  /** why it cannot be made (a refusal before any charge): 400 past the 40 s cap, 503 where no engine can run it now */
  reason: string | null;
  status?: 400 | 503;
}

/** A clip made from a photo, a character or words, without a sound of its own (decision 307). */
const extendable = (t: GenerationTask) => (EXTENDABLE_MODES as readonly GenerationMode[]).includes(t.mode) && !(t.input as unknown as TaskInput).audioKey;

/** The longest extension a clip takes: the joined clip is at most MAX_DURATION_SEC. */
const roomToExtend = (t: GenerationTask) => Math.max(0, Math.floor(MAX_DURATION_SEC - (t.durationSec ?? 0) + 1e-9));

/** A result below 1080p. */
const upscalable = (t: GenerationTask) => {
  const out = (t.outputs ?? {}) as Partial<TaskOutputs>;
  return Math.min(out.width ?? 0, out.height ?? 0) < UPSCALE_SHORT_SIDE;
};

/** The workflow an extension of `t` runs now (null where none does, always on the local engine), and its tier. */
async function extensionWorkflow(engines: Engines, t: GenerationTask, asked?: WorkflowTier) {
  const src = t.input as unknown as TaskInput;
  // the clip's own photo workflow where it had one and no other tier is asked for (the continuation then matches it),
  // else the engine's pick of the clip's tier, or the tier the person picked (issue 45)
  const tier = asked ?? src.tier;
  const keep = t.mode === "image_to_video" && !src.endImageKey && !src.camera && (!asked || asked === (src.tier ?? "full"));
  const workflow = keep ? src.workflow : undefined;
  const wf = await engines.offeredWorkflow(t.engine as EngineKind, { mode: "image_to_video", workflow, source: "image", lora: src.lora, tier });
  return { wf, tier };
}

/** The upscale workflow of `t`'s kind (a batch's first picture as a picture of its own) that runs now, or null. */
async function upscaleWorkflow(engines: Engines, t: GenerationTask) {
  const video = isVideo(t.mode);
  const mode: GenerationMode = t.mode === "image_batch" ? "text_to_image" : t.mode;
  return { mode, wf: await engines.offeredWorkflow(t.engine as EngineKind, { mode, source: video ? "video" : "image", followUp: "upscale" }) };
}

/**
 * The follow-ups a finished result can take now (issue 46 item 9): those whose quote would say available, so the app
 * offers no button that is then refused. None on a local draft; an extension where the clip has a second of room left
 * and its engine has the workflow; 1080p below it where the engine has an upscale workflow.
 */
export async function followUpsOffered(engines: Engines, t: GenerationTask): Promise<FollowUp[]> {
  if (t.engine === "local" || !t.outputKey) return [];
  const [extend, upscale] = await Promise.all([
    extendable(t) && roomToExtend(t) >= 1 ? extensionWorkflow(engines, t).then((r) => r.wf !== null) : false,
    upscalable(t) ? upscaleWorkflow(engines, t).then((r) => r.wf !== null) : false,
  ]);
  return [...(extend ? (["extend"] as const) : []), ...(upscale ? (["upscale"] as const) : [])];
}

/**
 * Follow-ups of a finished result (issue 33 items 5 and 6, docs/decisions/307): a new task made from one of the
 * person's own finished results, priced, refused before any charge where it cannot run, and charged, queued, failed
 * and refunded as any task (the same submit, so an idempotency key charges once). `extend` continues a clip from its
 * last frame with the engine's image-to-video workflow and joins the two into one file; `upscale` makes a clip or a
 * picture 1080p with the upscale workflow. Both run on the engine that made the source: a local draft has neither.
 */
export function createFollowUps(deps: GenerationDeps, { price }: Pricing, submit: ReturnType<typeof createSubmit>) {
  const { db, engines } = deps;

  /** The caller's finished, unexpired result: 404 when not theirs (another's looks missing), 409 while not finished. */
  async function finishedSource(userId: number, id: number): Promise<GenerationTask> {
    const t = await db.generationTask.findFirst({ where: { id, userId, state: "active" } });
    if (!t) throw HttpError.notFound();
    const expired = t.expiresAt !== null && t.expiresAt.getTime() <= Date.now();
    if (t.status !== "succeeded" || expired || !t.outputKey) throw HttpError.conflict(MSG.followUpNotReady);
    return t;
  }

  /** An extension: an image-to-video render from the clip's last frame, the joined clip at most MAX_DURATION_SEC. */
  async function extension(t: GenerationTask, seconds: number, asked?: WorkflowTier): Promise<Plan> {
    const src = t.input as unknown as TaskInput;
    if (!extendable(t)) throw HttpError.badRequest(MSG.notExtendable);
    const length = t.durationSec ?? 0;
    const maxExtend = roomToExtend(t);
    const { wf, tier } = await extensionWorkflow(engines, t, asked);
    const resolution = (t.resolution ?? "480P") as Resolution;
    return {
      mode: "image_to_video",
      engine: t.engine as EngineKind,
      resolution,
      durationSec: length + seconds,
      input: {
        videoKey: t.outputKey!,
        prompt: src.prompt,
        negativePrompt: src.negativePrompt,
        seed: src.seed,
        lora: src.lora,
        workflow: wf?.name,
        tier,
        extendSec: seconds,
        params: {},
        sources: {},
      },
      // per started price block of the continuation, at the clip's resolution and the workflow's class (decision 239)
      cost: price({ video: true, resolution, durationSec: seconds, count: 1, templatePrice: 1, costClass: wf?.costClass }),
      extendSec: seconds,
      maxExtend,
      ...(seconds > maxExtend
        ? { reason: MSG.durationLimit, status: 400 as const }
        : { reason: t.engine === "local" ? MSG.followUpNeedsAi : wf ? null : MSG.extendUnavailable }),
    };
  }

  /** 1080p: the upscale workflow of the source's kind (clip or picture), priced per started block of the clip, or per picture. */
  async function upscale(t: GenerationTask): Promise<Plan> {
    if (!upscalable(t)) throw HttpError.badRequest(MSG.alreadyHd);
    const video = isVideo(t.mode);
    const { mode, wf } = await upscaleWorkflow(engines, t);
    const length = t.durationSec ?? 0;
    return {
      mode,
      engine: t.engine as EngineKind,
      resolution: (t.resolution ?? "480P") as Resolution,
      durationSec: video ? length : undefined,
      input: { ...(video ? { videoKey: t.outputKey! } : { imageKey: t.outputKey! }), count: 1, params: {}, sources: {} },
      cost: price({ video, resolution: "480P", durationSec: length, count: 1, templatePrice: 1, costClass: wf?.costClass }),
      extendSec: 0,
      maxExtend: 0,
      reason: t.engine === "local" ? MSG.followUpNeedsAi : wf ? null : MSG.upscaleUnavailable,
    };
  }

  async function plan(userId: number, b: Ask): Promise<Plan> {
    const source = await finishedSource(userId, b.source_id);
    return b.kind === "extend" ? extension(source, b.duration, b.tier) : upscale(source);
  }

  return {
    /** The price of a follow-up before confirming it, and whether it can run now (else the reason the submit would give). */
    async followUpQuote(userId: number, b: Ask) {
      const p = await plan(userId, b);
      return {
        points: p.cost,
        kind: b.kind,
        duration: b.kind === "extend" ? p.extendSec : (p.durationSec ?? 0),
        max_duration: p.maxExtend,
        engine: p.engine,
        label: ENGINE_LABELS[p.engine],
        available: p.reason === null,
        reason: p.reason,
      };
    },

    /** Submits a follow-up: refused with 503 before any charge where it cannot run, else charged once per idempotency key. */
    async followUp(userId: number, b: FollowUpBody, known?: KnownBalance) {
      const p = await plan(userId, b);
      if (p.reason) throw new HttpError(p.status ?? 503, p.reason);
      const followUp: { kind: FollowUp; sourceId: number } = { kind: b.kind, sourceId: b.source_id };
      return submit(userId, {
        mode: p.mode,
        engine: p.engine,
        resolution: p.resolution,
        durationSec: p.durationSec,
        input: p.input,
        cost: p.cost,
        idempotencyKey: b.idempotency_key,
        known,
        followUp,
      });
    },
  };
}
