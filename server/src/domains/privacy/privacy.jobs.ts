import type PgBoss from "pg-boss";
import type { Logger } from "pino";
import { createQueueOnce } from "../generation/queue.ts";

/** Builds one data export (decision 261). */
export const EXPORT_QUEUE = "privacy-export";
/** Deletes a data export's archive when its keeping time is over. */
export const EXPORT_EXPIRY_QUEUE = "privacy-export-expiry";
/** Erases an account when its grace period is over, unless the deletion was undone (decision 262). */
export const ERASE_QUEUE = "privacy-erase";

interface IdJob {
  id: number;
}

/**
 * The privacy domain's jobs on the same pg-boss as generation's (its producer instance: no second pool). Each job
 * names its row; every handler checks the row's state first, so a job run twice or after an undo changes nothing.
 */
export function createPrivacyJobs(boss: () => Promise<PgBoss>) {
  let made: Promise<PgBoss> | undefined;
  const ready = () =>
    (made ??= boss().then(async (b) => {
      for (const name of [EXPORT_QUEUE, EXPORT_EXPIRY_QUEUE, ERASE_QUEUE]) await createQueueOnce(b, name);
      return b;
    }));
  const send = async (queue: string, id: number, startAfter?: Date) => {
    const b = await ready();
    // an export may take minutes on a large account; an erasure is one transaction
    await b.send(queue, { id } satisfies IdJob, { retryLimit: 3, retryDelay: 60, expireInSeconds: 30 * 60, ...(startAfter ? { startAfter } : {}) });
  };
  return {
    sendExport: (id: number) => send(EXPORT_QUEUE, id),
    sendExpiry: (id: number, at: Date) => send(EXPORT_EXPIRY_QUEUE, id, at),
    sendErase: (id: number, at: Date) => send(ERASE_QUEUE, id, at),

    /** Starts working the three queues, one job at a time each (run by the API process that runs the worker). */
    async work(handlers: { export(id: number): Promise<void>; expire(id: number): Promise<void>; erase(id: number): Promise<unknown> }, log: Logger) {
      const b = await ready();
      const each = (run: (id: number) => Promise<unknown>) => async (jobs: PgBoss.Job<IdJob>[]) => {
        for (const job of jobs) await run(job.data.id);
      };
      await b.work<IdJob>(EXPORT_QUEUE, { batchSize: 1 }, each(handlers.export));
      await b.work<IdJob>(EXPORT_EXPIRY_QUEUE, { batchSize: 1 }, each(handlers.expire));
      await b.work<IdJob>(ERASE_QUEUE, { batchSize: 1 }, each(handlers.erase));
      log.info("privacy jobs running");
    },
  };
}

export type PrivacyJobs = ReturnType<typeof createPrivacyJobs>;
