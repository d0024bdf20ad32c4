import type { EngineKind } from "../../contract/engines.ts";
import type { GenerationService } from "../generation/generation.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import type { ProgressHub } from "../generation/progress.ts";
import type { CharacterMediaPort } from "./chat.media.ts";

/**
 * Character avatars are painted by the generation domain's text-to-image path (a square picture on an AI engine,
 * not shared) and kept as the person's upload: chat's AvatarImages (chat.characters.ts) on those two domains.
 */
export function avatarImages(generation: Pick<GenerationService, "aiEngineFor" | "images" | "imageOf">, uploads: Pick<UploadsService, "keepGeneratedImage">) {
  return {
    aiEngine: () => generation.aiEngineFor("text_to_image"),
    paint: (userId: number, o: { prompt: string; negativePrompt: string; idempotencyKey?: string }, engine: EngineKind) =>
      generation.images(
        userId,
        { prompt: o.prompt, negative_prompt: o.negativePrompt, aspect: "1:1", idempotency_key: o.idempotencyKey },
        false,
        undefined,
        engine,
      ),
    keep: async (userId: number, taskId: number) => uploads.keepGeneratedImage(userId, await generation.imageOf(userId, taskId)),
  };
}

/**
 * Characters' pictures and clips are generation tasks of the person (issue 50): chat's CharacterMediaPort on the
 * generation domain's quote, charged submit, view, cancellation and progress (services.ts wires it).
 */
export function characterMedia(
  generation: Pick<GenerationService, "characterMediaQuote" | "characterMedia" | "detailsOf" | "cancelTasks">,
  progress: Pick<ProgressHub, "subscribe">,
): CharacterMediaPort {
  return {
    quote: (plan) => generation.characterMediaQuote(plan),
    submit: (userId, r) => generation.characterMedia(userId, r),
    // a task taken down (or deleted from the person's results) is simply absent: its message shows it removed
    views: (userId, taskIds) => generation.detailsOf(userId, taskIds),
    cancel: (tx, ids, error) => generation.cancelTasks(tx, ids, error),
    watch: (listener) => progress.subscribe(listener),
  };
}
