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
}

/** A character's picture or clip as the chat domain asks for it: the built prompt, the look, the key of the request. */
export interface CharacterMediaRequest extends CharacterMediaPlan {
  prompt: string;
  negativePrompt: string;
  /** the character's owner's own trained model, applied only where the owner asks (decision 366) */
  model?: { userId: number; modelId: number };
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

  /**
   * The engine (a GPU one that runs the mode now, else the local draft where drafts are allowed), the workflow and the
   * price; 503 before anything is charged when neither can make it.
   */
  async function plan(p: CharacterMediaPlan) {
    const mode = modeOf(p.kind, p.imageKey);
    const ai = await aiEngineFor(mode);
    const engine: EngineKind | null = ai ?? (p.drafts ? "local" : null);
    if (!engine) throw new HttpError(503, CHAT_MEDIA_MESSAGES.unavailable);
    const workflow = engine === "local" ? undefined : p.workflows[engine];
    const video = p.kind === "video";
    const costClass = await engines.costClassFor(engine, { mode, workflow, source: p.imageKey ? "image" : undefined });
    const cost = p.price ?? price({ video, resolution: "480P", durationSec: CHAT_MEDIA_SECONDS[p.kind], count: 1, templatePrice: 1, costClass });
    return { mode, engine, workflow, cost, video };
  }

  /** A model the owner can no longer use (taken down, consent withdrawn) is left out rather than refusing the picture. */
  async function loraOf(model: CharacterMediaRequest["model"]): Promise<TaskInput["lora"]> {
    if (!model) return undefined;
    try {
      return await deps.models.loraFor(model.userId, model.modelId);
    } catch (err) {
      if (err instanceof HttpError) return undefined;
      throw err;
    }
  }

  return {
    /** The price shown before the tap, and whether the result would be the local engine's labelled draft. */
    async characterMediaQuote(p: CharacterMediaPlan) {
      const { engine, cost, mode, workflow } = await plan(p);
      return {
        points: cost,
        engine,
        label: ENGINE_LABELS[engine],
        draft: engine === "local",
        available: (await engines.refusal(engine, mode, workflow)) === null,
      };
    },

    /** Submits the character's picture or clip as the person's task, charged (or refused) like any studio request. */
    async characterMedia(userId: number, r: CharacterMediaRequest) {
      const { mode, engine, workflow, cost, video } = await plan(r);
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
        lora: await loraOf(r.model),
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
