import { createTrainingModels } from "./training.models.ts";
import { createTrainingModeration } from "./training.moderation.ts";
import { createTrainingRuns } from "./training.runs.ts";
import { createTrainingSubmit } from "./training.submit.ts";
import { createTrainingUpdates } from "./training.updates.ts";
import { createTrainingUses } from "./training.uses.ts";
import { eraseTrainingOf } from "./training.erase.ts";
import { createTrainingGpu } from "./training.gpu.ts";
import type { TrainingDeps } from "./training.deps.ts";

export type { LoraRef, TrainingDeps } from "./training.deps.ts";

/** Character-model training (SPEC.md §9): the use cases of this folder, wired together. */
export function createTrainingService(d: TrainingDeps) {
  const gpu = createTrainingGpu(d);
  const runs = createTrainingRuns(d, gpu);
  const models = createTrainingModels(d, runs);
  return {
    ...models,
    ...createTrainingSubmit(d, models, runs),
    ...createTrainingUpdates(d, runs),
    ...createTrainingModeration(d, models, runs),
    ...createTrainingUses(d, gpu),
    gpuWeights: gpu.gpuWeights,
    /** Account erasure (privacy, decision 262): the account's models and consent records, and the GPU servers' copies. */
    eraseUser: eraseTrainingOf(gpu.evictFromGpus),
  };
}

export type TrainingService = ReturnType<typeof createTrainingService>;
