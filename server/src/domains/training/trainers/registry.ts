import type { Config } from "../../../config.ts";
import type { TrainerName } from "../../../contract/training.ts";
import { createFalTrainer } from "./fal.trainer.ts";
import { createReplicateTrainer } from "./replicate.trainer.ts";
import type { Trainer } from "./trainer.ts";

const FACTORIES: Record<TrainerName, (c: Config) => Trainer> = { replicate: createReplicateTrainer, fal: createFalTrainer };

/** The configured trainer, or null: training then says it is not available, before anything is charged. */
export function createTrainer(config: Config): Trainer | null {
  return config.TRAINER ? FACTORIES[config.TRAINER](config) : null;
}
