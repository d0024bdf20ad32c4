import crypto from "node:crypto";
import { ENGINE_LABELS, type EngineKind, type WorkflowTier } from "../../contract/engines.ts";
import { IMAGE_MODES, PHOTO_MODES, type GenerationMode } from "../../contract/generation.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { REQUEST_EXTRAS, sourceOf, templateCamera, type RequestExtra, type WorkflowRequest } from "./engines/controls.ts";
import type { DurationPointsBody, ImageBatchBody, PicVideoBody, RoleVideoBody } from "./generation.schema.ts";
import type { Pricing } from "./generation.pricing.ts";
import type { createSubmit } from "./generation.submit.ts";
import type { GenerationDeps, KnownBalance, TaskInput } from "./generation.task.ts";

/**
 * What a task brings that only a workflow needing it runs (issue 33): a transition's last frame, a camera move, a
 * photo with a video (the photo performs the video's motion, decision 306).
 */
const extrasOf = (input: Pick<TaskInput, "endImageKey" | "camera" | "imageKey" | "videoKey">): RequestExtra[] =>
  REQUEST_EXTRAS.filter((x) => (x === "end_image" ? !!input.endImageKey : x === "camera" ? !!input.camera : !!(input.imageKey && input.videoKey)));

/** The consumer's generation requests (video from a picture, a role or a prompt; images), priced and submitted. */
export function createRequests(deps: GenerationDeps, { price, freeCovers }: Pricing, submit: ReturnType<typeof createSubmit>) {
  const { templates, uploads, engines } = deps;

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

  async function templateFor(templateId: number | undefined, accepts: readonly GenerationMode[]) {
    if (!templateId) return null;
    const t = await templates.get(templateId);
    if (!accepts.includes(t.mode)) throw HttpError.badRequest(MSG.templateWrongKind);
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
   * The cost class of what the request will run (decision 239): the engine's workflow for the template, mode, source,
   * extras, tier and character model (a workflow of its family, decision 395).
   */
  const costClass = (engine: EngineKind, template: { workflow: string | null } | null, request: Omit<WorkflowRequest, "workflow">) =>
    engines.costClassFor(engine, { ...request, workflow: template?.workflow });

  /** A video task's price and submit, for the engine its template (or the default) renders with. */
  async function submitVideo(
    userId: number,
    mode: GenerationMode,
    template: { id: number; engine: string | null; workflow: string | null; creditPrice: number } | null,
    b: PicVideoBody | RoleVideoBody,
    input: TaskInput,
    known?: KnownBalance,
  ) {
    const engine = engineOf(template);
    const source = input.videoKey ? "video" : input.imageKey ? "image" : undefined;
    const extras = extrasOf(input);
    const templatePrice = template?.creditPrice ?? 1;
    const cost = price({
      video: true,
      resolution: b.resolution,
      durationSec: b.duration,
      count: 1,
      templatePrice,
      costClass: await costClass(engine, template, { mode, source, extras, tier: input.tier, lora: input.lora }),
    });
    return submit(userId, {
      extras,
      mode,
      engine,
      templateId: template?.id,
      resolution: b.resolution,
      durationSec: b.duration,
      input,
      cost,
      idempotencyKey: b.idempotency_key,
      known,
      remixOfId: b.remix_of,
    });
  }

  return {
    async picVideo(userId: number, b: PicVideoBody, known?: KnownBalance) {
      if (!b.image_id && !b.video_id) throw HttpError.badRequest(MSG.choosePicture);
      const mode: GenerationMode = b.video_id ? "video_to_video" : b.audio_id ? "audio_overlay" : "image_to_video";
      // a transition or a camera move is image to video's (issue 33)
      if ((b.end_image_id || b.camera) && mode !== "image_to_video") throw HttpError.badRequest(MSG.photoOnlyExtras);
      const template = await templateFor(b.template_id, mode === "video_to_video" ? ["video_to_video"] : PHOTO_MODES);
      const input: TaskInput = {
        prompt: b.prompt,
        aspect: b.aspect,
        ...controls(b, template),
        camera: b.camera ?? templateCamera(template?.engineParams),
        params: (template?.engineParams as Record<string, unknown>) ?? {},
        sources: { image_id: b.image_id, end_image_id: b.end_image_id, video_id: b.video_id, audio_id: b.audio_id },
        tier: b.tier,
      };
      if (b.video_id) input.videoKey = (await uploads.own(userId, b.video_id, "video")).storageKey;
      // a photo beside a video is the person who performs its motion ("copy motion", decision 306)
      if (b.image_id) input.imageKey = (await uploads.own(userId, b.image_id, "image")).storageKey;
      if (b.end_image_id) input.endImageKey = (await uploads.own(userId, b.end_image_id, "image")).storageKey;
      if (b.audio_id) input.audioKey = (await uploads.own(userId, b.audio_id, "audio")).storageKey;
      return submitVideo(userId, mode, template, b, input, known);
    },

    /** Video from a role's reference photo, or (textVideoSubmit without a role) from a prompt. */
    async roleOrTextVideo(userId: number, b: RoleVideoBody, requireRole: boolean, known?: KnownBalance) {
      if (requireRole ? !b.role_id : !b.role_id && !b.prompt) throw HttpError.badRequest(MSG.textOrRole);
      const mode: GenerationMode = b.role_id ? "role_video" : "text_to_video";
      const template = await templateFor(b.template_id, [...PHOTO_MODES, "text_to_video"]);
      const input: TaskInput = {
        prompt: b.prompt,
        aspect: b.aspect,
        ...controls(b, template),
        params: (template?.engineParams as Record<string, unknown>) ?? {},
        sources: { role_id: b.role_id, audio_id: b.audio_id },
        tier: b.tier,
      };
      if (b.role_id) Object.assign(input, await role(userId, b.role_id, b.strength));
      if (b.audio_id) input.audioKey = (await uploads.own(userId, b.audio_id, "audio")).storageKey;
      return submitVideo(userId, mode, template, b, input, known);
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
      const mode = batch ? "image_batch" : "text_to_image";
      const tier = await costClass(engine, template, { mode, source: input.imageKey ? "image" : undefined, lora: input.lora });
      const cost = price({ video: false, resolution: "480P", durationSec: 0, count, templatePrice: template?.creditPrice ?? 1, costClass: tier });
      return submit(userId, {
        mode,
        engine,
        templateId: template?.id,
        input,
        cost,
        idempotencyKey: b.idempotency_key,
        known,
        remixOfId: b.remix_of,
      });
    },

    /**
     * An engine that paints `mode` with an image model: the default engine when it is one and can run now, else the
     * first other that can; null when only the local draft renderer (procedural pictures, not a model) could.
     */
    async aiEngineFor(mode: GenerationMode): Promise<EngineKind | null> {
      const fit = (await engines.statuses()).filter((s) => s.ai && s.available && s.modes.includes(mode));
      return (fit.find((s) => s.engine === engines.defaultName) ?? fit[0])?.engine ?? null;
    },

    /**
     * The price before submitting, for the engine the template (or the default) renders with; with `role_id`, the
     * caller's own character model, as the submit will run it: from its cover, on a workflow of its family (decision 395).
     */
    async quote(b: DurationPointsBody, userId?: number) {
      const template = b.template_id ? await templates.get(b.template_id) : null;
      const engine = engineOf(template);
      // the mode the app will submit prices the workflow it will run; a template's own mode when none is said
      const mode = b.mode ?? template?.mode ?? (b.type === "video" ? "image_to_video" : "text_to_image");
      if (b.role_id && !userId) throw HttpError.unauthorized();
      const lora = b.role_id && userId ? await deps.models.loraFor(userId, b.role_id) : undefined;
      // what the submit will bring: the mode's source (a character model's cover), a photo beside a video copying its
      // motion, the extras and the character model
      const given = (v: unknown) => (v ? "given" : undefined);
      const photo = b.image_id ?? b.role_id;
      const brings = {
        image: given(sourceOf(mode) === "image" || photo),
        video: given(mode === "video_to_video"),
        endImage: given(b.end_image_id),
        camera: b.camera ?? templateCamera(template?.engineParams),
        audio: given(mode === "audio_overlay"),
        lora,
      };
      const extras = extrasOf({ imageKey: brings.image, videoKey: brings.video, endImageKey: brings.endImage, camera: brings.camera });
      // a photo given to a mode that does without one (image to image) is priced and checked as the workflow using it
      const request = { mode, workflow: template?.workflow, source: sourceOf(mode) ?? (photo ? "image" : undefined), extras, lora };
      // a tier's price and whether it can run now, as the submit's refusal will ask: the mode it submits and the
      // template's exact workflow (a template's own mode that runs is no help to another mode it is used in, e.g. a
      // photo template in text to video)
      const priced = async (tier: WorkflowTier) => {
        const reason = await engines.refusal(engine, mode, template?.workflow, extras, brings, tier);
        const points = price({
          video: b.type === "video",
          resolution: b.resolution,
          durationSec: b.duration,
          count: b.count,
          templatePrice: template?.creditPrice ?? 1,
          costClass: await engines.costClassFor(engine, { ...request, tier }),
        });
        return { tier, points, available: reason === null, reason };
      };
      // the asked tier (unset: full) is priced once, from the list of tiers where the request has it
      const asked = b.tier ?? "full";
      const tiers = await Promise.all(engines.tiersFor(engine, request).map(priced));
      const { points, available, reason } = tiers.find((t) => t.tier === asked) ?? (await priced(asked));
      // whether a free generation would pay for it, so the app shows "free video left" only where it applies
      return {
        points,
        resolution: b.resolution,
        duration: b.duration,
        count: b.count,
        engine,
        label: ENGINE_LABELS[engine],
        free_applies: freeCovers(points),
        available,
        reason,
        controls: await engines.controlsFor(engine, request),
        misfit: engines.misfit(engine, mode, template?.workflow, brings),
        required: engines.requiredExtras(engine, template?.workflow),
        tier: asked,
        tiers: tiers.map((t) => ({ tier: t.tier, points: t.points, available: t.available })),
      };
    },
  };
}
