import crypto from "node:crypto";
import { CHAT_MEDIA_SECONDS, CHAT_MEDIA_MESSAGES, type ChatMediaKind } from "../../contract/chat.ts";
import { ENGINE_LABELS, type EngineKind } from "../../contract/engines.ts";
import type { GenerationMode } from "../../contract/generation.ts";
import { HttpError } from "../../http/errors.ts";
import type { Pricing } from "./generation.pricing.ts";
import type { createSubmit } from "./generation.submit.ts";
import type { GenerationDeps, KnownBalance, TaskInput } from "./generation.task.ts";

/** How a character's picture or clip is made, as the operator set it (chat's `chatMedia` setting, issue 50 item 5). */
export interface CharacterMediaPlan {
  kind: ChatMediaKind;
  /** the operator's price for the kind; null: the generation price of the same request */
  price: number | null;
  /** whether the local engine's labelled draft stands in when no GPU engine can make it */
  drafts: boolean;
  /** the workflow this kind runs per GPU engine; none: the engine's own choice for the mode */
  workflows: Record<string, string>;
  /** the character's look: its avatar, else its first reference picture (the source it is made from) */
  imageKey?: string;
  /**
   * the character's other pictures (up to four): a workflow with reference slots reads them all besides `imageKey`;
   * one reading a single picture, a clip and the local draft are made from `imageKey` alone (decision 385)
   */
  referenceKeys?: string[];
  /** the character's owner's own trained model, applied only where the owner asks (decision 366) */
  model?: { userId: number; modelId: number };
}

/** A character's picture or clip as the chat domain asks for it: the built prompt, the look, the key of the request. */
export interface CharacterMediaRequest extends CharacterMediaPlan {
  prompt: string;
  negativePrompt: string;
  idempotencyKey?: string;
  known?: KnownBalance;
}

/**
 * The generation side of characters' media in chat (issue 50, docs/decisions/365): which engine makes it, what it
 * costs, and the charged submit, the same one every studio request goes through (screening, ledger with its
 * idempotency key, free generations, caps, refunds once, watermark and Content Credentials on the worker's side).
 */
export function createCharacterMedia(
  deps: GenerationDeps,
  { price }: Pricing,
  submit: ReturnType<typeof createSubmit>,
  aiEngineFor: (mode: GenerationMode) => Promise<EngineKind | null>,
) {
  const { engines } = deps;

  /** The mode a kind renders in: a picture from the character's look, a clip that moves it (or from words without one). */
  const modeOf = (kind: ChatMediaKind, imageKey: string | undefined): GenerationMode =>
    kind === "image" ? "text_to_image" : imageKey ? "image_to_video" : "text_to_video";

  /** A model the owner can no longer use (taken down, consent withdrawn) is left out rather than refusing the picture. */
  async function loraOf(model: CharacterMediaPlan["model"]): Promise<TaskInput["lora"]> {
    if (!model) return undefined;
    try {
      return await deps.models.loraFor(model.userId, model.modelId);
    } catch (err) {
      if (err instanceof HttpError) return undefined;
      throw err;
    }
  }

  /**
   * The engine (a GPU one that can make this very request now: the mode, from the character's look, with its LoRA;
   * else the local draft where drafts are allowed), the workflow and the price; 503 before anything is charged when
   * neither can make it. The quote and the submit ask the same, so a quoted picture is not refused at the tap.
   */
  async function plan(p: CharacterMediaPlan, lora?: TaskInput["lora"]) {
    const mode = modeOf(p.kind, p.imageKey);
    const ai = await aiEngineFor(mode);
    const workflowOn = (engine: EngineKind) => (engine === "local" ? undefined : p.workflows[engine]);
    const runs = ai !== null && (await engines.refusal(ai, mode, workflowOn(ai), [], { image: p.imageKey, lora })) === null;
    const engine: EngineKind | null = runs ? ai : p.drafts ? "local" : null;
    if (!engine) throw new HttpError(503, CHAT_MEDIA_MESSAGES.unavailable);
    const workflow = workflowOn(engine);
    const video = p.kind === "video";
    const costClass = await engines.costClassFor(engine, { mode, workflow, source: p.imageKey ? "image" : undefined, lora });
    const cost = p.price ?? price({ video, resolution: "480P", durationSec: CHAT_MEDIA_SECONDS[p.kind], count: 1, templatePrice: 1, costClass });
    return { mode, engine, workflow, cost, video };
  }

  return {
    /** The price shown before the tap, and whether the result would be the local engine's labelled draft. */
    async characterMediaQuote(p: CharacterMediaPlan) {
      const lora = await loraOf(p.model);
      const { engine, cost, mode, workflow } = await plan(p, lora);
      return {
        points: cost,
        engine,
        label: ENGINE_LABELS[engine],
        draft: engine === "local",
        available: (await engines.refusal(engine, mode, workflow, [], { image: p.imageKey, lora })) === null,
      };
    },

    /** Submits the character's picture or clip as the person's task, charged (or refused) like any studio request. */
    async characterMedia(userId: number, r: CharacterMediaRequest) {
      const lora = await loraOf(r.model);
      const { mode, engine, workflow, cost, video } = await plan(r, lora);
      const input: TaskInput = {
        prompt: r.prompt,
        negativePrompt: r.negativePrompt,
        seed: crypto.randomInt(0, 2 ** 31),
        // with the character's look as source the output takes its shape; from words alone, a phone's portrait
        aspect: r.imageKey ? undefined : "9:16",
        workflow,
        params: {},
        sources: {},
        imageKey: r.imageKey,
        referenceKeys: r.referenceKeys?.length ? r.referenceKeys : undefined,
        lora,
      };
      return submit(userId, {
        mode,
        engine,
        input,
        resolution: video ? "480P" : undefined,
        durationSec: video ? CHAT_MEDIA_SECONDS.video : undefined,
        cost,
        idempotencyKey: r.idempotencyKey,
        known: r.known,
      });
    },
  };
}
