import { createTrainingModels } from "./training.models.ts";
import { createTrainingModeration } from "./training.moderation.ts";
import { createTrainingRuns } from "./training.runs.ts";
import { createTrainingSubmit } from "./training.submit.ts";
import { createTrainingUpdates } from "./training.updates.ts";
import { createTrainingUses } from "./training.uses.ts";
import { eraseTraining } from "./training.erase.ts";
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
    /**
     * Before an account's erasure (privacy, decision 262): every GPU server is asked to delete its copies of the
     * account's weights (decision 330). Outside the erasure's transaction, as a provider call is; evicting early is
     * harmless should the erasure not happen, a server fetches a live model again on its next use.
     */
    async evictModelsOf(userId: number): Promise<void> {
      const models = await d.db.characterModel.findMany({ where: { userId }, select: { weightsSha256: true } });
      await gpu.evictFromGpus(models.map((m) => m.weightsSha256));
    },
    /** Account erasure (privacy, decision 262): the account's models, consent records and the rows of their GPU copies. */
    eraseUser: eraseTraining,
  };
}

export type TrainingService = ReturnType<typeof createTrainingService>;
