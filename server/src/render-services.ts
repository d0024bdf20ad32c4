import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { createAuditService } from "./domains/audit/audit.service.ts";
import { createCreditsService } from "./domains/credits/credits.service.ts";
import { createEngines } from "./domains/generation/engines/registry.ts";
import { createGenerationService } from "./domains/generation/generation.service.ts";
import { createProgressHub } from "./domains/generation/progress.ts";
import { createTemplatesService } from "./domains/templates/templates.service.ts";
import { createUploadsService } from "./domains/uploads/uploads.service.ts";
import { createStorage } from "./storage/storage.ts";
import { createGenerationQueue } from "./domains/generation/queue.ts";
import { createConsentChecks } from "./domains/training/consent.ts";
import { createTrainingService } from "./domains/training/training.service.ts";
import { createTrainer } from "./domains/training/trainers/registry.ts";
import { faceAnalyser } from "./faces/faces.ts";
import { createScreeningService } from "./domains/screening/screening.service.ts";
import { createBlocklistService } from "./domains/screening/blocklist.service.ts";
import { createMetrics } from "./metrics/metrics.ts";
import { createProvenanceService } from "./domains/provenance/provenance.service.ts";
import { createNotificationsService } from "./domains/notifications/notifications.service.ts";

export interface AppDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** For LISTEN/NOTIFY and the job queue; defaults to DATABASE_URL. */
  databaseUrl?: string;
}

/**
 * What rendering needs: the generation service and what it stands on. The worker process builds only this (no mailer,
 * sign-in or payment providers are loaded there, docs/decisions/051); the API builds it as part of createServices.
 */
export function createRenderServices({ db, config, log, databaseUrl }: AppDeps) {
  const metrics = createMetrics();
  const limiter = new RateLimiter(db);
  const audit = createAuditService(db);
  const credits = createCreditsService(db, audit, metrics.ledger);
  const url = databaseUrl ?? config.DATABASE_URL ?? "";
  const storage = createStorage(config);
  const blocklist = createBlocklistService({ db, storage, audit, log });
  const screening = createScreeningService({ db, config, log, faces: faceAnalyser(), storage, audit, blocklist });
  const uploads = createUploadsService(db, storage, screening);
  const engines = createEngines(config, log, undefined, url);
  // every output is signed and fingerprinted by the worker; the API answers the public provenance page
  const provenance = createProvenanceService({ db, config, log, storage });
  const templates = createTemplatesService(db, storage, engines.refusalFor);
  const queue = createGenerationQueue({ url, config, log, role: "producer" });
  const progress = createProgressHub(url, log);
  // training renders nothing itself, but generation asks it for a model's LoRA and the worker polls its trainer jobs
  const consent = createConsentChecks({ config, storage, faces: faceAnalyser() });
  const training = createTrainingService({ db, config, log, credits, storage, uploads, trainer: createTrainer(config), consent, queue, audit });
  // counted after the cheap refusal, so a refusal for want of credits makes no query (docs/decisions/222)
  const countSubmit = (userId: number) =>
    limiter.hit("generate", [{ key: `user:${userId}`, limit: config.RATE_LIMIT_GENERATIONS_PER_HOUR, windowSeconds: 3600 }]);
  const notifications = createNotificationsService(db);
  const generation = createGenerationService({
    db,
    config,
    credits,
    storage,
    templates,
    uploads,
    queue,
    engines,
    models: training,
    blocklist,
    countSubmit,
    jobs: metrics.jobs,
    faces: faceAnalyser(),
    log,
    notify: notifications.record,
  });
  /** Releases the queue and LISTEN connections (the db itself belongs to the caller). */
  const close = async () => {
    await Promise.all([queue.stop(), progress.close(), engines.close()]);
  };
  return {
    metrics,
    limiter,
    audit,
    credits,
    storage,
    blocklist,
    screening,
    uploads,
    templates,
    engines,
    engineStatus: engines.publicStatus,
    queue,
    progress,
    generation,
    training,
    provenance,
    notifications,
    close,
  };
}
