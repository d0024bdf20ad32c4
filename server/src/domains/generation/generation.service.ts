import { createTaskAttempts } from "./generation.attempts.ts";
import { createCharacterMedia } from "./generation.chat-media.ts";
import { createTaskFailures } from "./generation.failures.ts";
import { createFollowUps } from "./generation.follow-ups.ts";
import { createGallery } from "./generation.gallery.ts";
import { createGpuCosts } from "./generation.gpu-costs.ts";
import { moderatedTasks } from "./generation.moderated.ts";
import { createPriceRange } from "./generation.price-range.ts";
import { createPricing } from "./generation.pricing.ts";
import { createTaskReads } from "./generation.reads.ts";
import { createRequests } from "./generation.requests.ts";
import { createTaskResults } from "./generation.results.ts";
import { createSubmit } from "./generation.submit.ts";
import type { Tx } from "../../db/client.ts";
import type { GenerationDeps } from "./generation.task.ts";
import { createTaskViews } from "./generation.views.ts";
import { createWatermark } from "./generation.watermark.ts";
import { queueFigures } from "./generation.queries.ts";

// the words the domain's callers use, where they have always found them
export { LORA_NOT_APPLIED, STATUS_TEXT, type CharacterModels, type KnownBalance, type TaskInput, type TaskOutputs } from "./generation.task.ts";

/**
 * The generation domain, composed of its use cases: requests and the charged submit, reading tasks, a result's life
 * (remove, share, creator pages, expiry), the gallery (likes, remixes), the worker's attempts, failures and refunds, and moderation's view.
 */
export function createGenerationService(deps: GenerationDeps) {
  const pricing = createPricing(deps.config);
  const submit = createSubmit(deps, pricing);
  const views = createTaskViews(deps);
  const reads = createTaskReads(deps, views);
  const failures = createTaskFailures(deps);
  const results = createTaskResults(deps, reads);
  const { moveLikes, eraseLikes, ...gallery } = createGallery(deps, views);
  const requests = createRequests(deps, pricing, submit);
  return {
    moderated: moderatedTasks,
    price: pricing.price,
    submit,
    view: views.view,
    ...requests,
    /** Characters' pictures and clips in chat (issue 50): priced and submitted here, asked for by the chat domain. */
    ...createCharacterMedia(deps, pricing, submit, requests.aiEngineFor),
    ...createPriceRange(deps, pricing),
    ...createFollowUps(deps, pricing, submit),
    ...reads,
    ...gallery,
    ...results,
    /** Guest merge (auth): the guest's tasks and gallery likes become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number) {
      await results.moveToUser(tx, fromUserId, toUserId);
      await moveLikes(tx, fromUserId, toUserId);
    },
    /** Account erasure: the account's likes go with its tasks; answers the tasks' files to delete once it commits. */
    async eraseUser(tx: Tx, userId: number) {
      await eraseLikes(tx, userId);
      return results.eraseUser(tx, userId);
    },
    ...createTaskAttempts(deps, failures),
    ...createGpuCosts(deps, pricing),
    ...failures,
    /** The worker's step between an engine's result and storing it: free output gets the logo (docs/decisions/296). */
    watermark: createWatermark(deps),
    /** Tasks waiting and running, and the age of the oldest of each, for the operations figures. */
    queueFigures: () => queueFigures.rows(deps.db, {}),
  };
}

export type GenerationService = ReturnType<typeof createGenerationService>;
