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
