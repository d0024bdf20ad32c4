import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { TrainingService } from "../domains/training/training.service.ts";
import { TRAINING_POLL_QUEUE, type TrainingPollData } from "../domains/generation/queue.ts";

/**
 * The training poll: the fallback for a webhook that never comes, and the trainer time-out. Each job polls one model
 * and sends the next poll while the model still trains; the handler is idempotent (a model that ended is left alone),
 * so a job pg-boss runs twice does no harm. Also expires consent records past their retention.
 */
export async function startTrainingPoller(boss: PgBoss, training: TrainingService, log: Logger, pollSeconds: number): Promise<{ stop(): void }> {
  await boss.work<TrainingPollData>(TRAINING_POLL_QUEUE, { batchSize: 1, pollingIntervalSeconds: Math.max(1, Math.min(pollSeconds, 30)) }, async ([job]) => {
    const next = await training.poll(job.data.modelId);
    if (next === "again") await training.schedulePoll(job.data.modelId);
  });
  const sweep = setInterval(() => void training.expireConsents().catch((err) => log.error({ err }, "consent expiry failed")), 3600_000);
  sweep.unref();
  return { stop: () => clearInterval(sweep) };
}
