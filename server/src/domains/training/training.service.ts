import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import type { GenerationQueue } from "../generation/queue.ts";
import type { EngineLora } from "../generation/engines/engine.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { UploadsService } from "../uploads/uploads.service.ts";
import type { ConsentChecks } from "./consent.ts";
import { createTrainingModels } from "./training.models.ts";
import { createTrainingModeration } from "./training.moderation.ts";
import { createTrainingRuns } from "./training.runs.ts";
import { createTrainingSubmit } from "./training.submit.ts";
import { createTrainingUpdates } from "./training.updates.ts";
import { createTrainingUses } from "./training.uses.ts";
import type { Trainer } from "./trainers/trainer.ts";

/** What generation receives for a usable model: the engines bind it (issue 13); the local engine ignores it. */
export type LoraRef = EngineLora & { modelId: number };

export interface TrainingDeps {
  db: Db;
  config: Config;
  log: Logger;
  credits: CreditsService;
  storage: MediaStorage;
  uploads: UploadsService;
  trainer: Trainer | null;
  consent: ConsentChecks;
  queue: GenerationQueue;
  audit: AuditService;
}

/** Character-model training (SPEC.md §9): the use cases of this folder, wired together. */
export function createTrainingService(d: TrainingDeps) {
  const runs = createTrainingRuns(d);
  const models = createTrainingModels(d, runs);
  return { ...models, ...createTrainingSubmit(d, models, runs), ...createTrainingUpdates(d, runs), ...createTrainingModeration(d, models, runs), ...createTrainingUses(d) };
}

export type TrainingService = ReturnType<typeof createTrainingService>;
