import type { GenerationService } from "../generation/generation.service.ts";
import type { ProgressHub } from "../generation/progress.ts";
import { HttpError } from "../../http/errors.ts";
import type { CharacterMediaPort } from "./chat.media.ts";

/**
 * Characters' pictures and clips are generation tasks of the person (issue 50): chat's CharacterMediaPort on the
 * generation domain's quote, charged submit, view, cancellation and progress (services.ts wires it).
 */
export function characterMedia(
  generation: Pick<GenerationService, "characterMediaQuote" | "characterMedia" | "details" | "cancelTasks">,
  progress: Pick<ProgressHub, "subscribe">,
): CharacterMediaPort {
  return {
    quote: (plan) => generation.characterMediaQuote(plan),
    submit: (userId, r) => generation.characterMedia(userId, r),
    async view(userId, taskId) {
      try {
        return await generation.details(userId, taskId);
      } catch (err) {
        // a task taken down (or deleted from the person's results) shows as removed, never as an error of the conversation
        if (err instanceof HttpError && err.status === 404) return null;
        throw err;
      }
    },
    cancel: (tx, ids, error) => generation.cancelTasks(tx, ids, error),
    watch: (listener) => progress.subscribe(listener),
  };
}
