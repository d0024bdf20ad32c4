import crypto from "node:crypto";
import { SCREENING_MESSAGES } from "../../contract/screening.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import type { TaskFailures } from "./generation.failures.ts";
import type { EngineTry } from "./engines/engine.ts";
import { appendRun, claimAttempt, requeueStalled, stalledTasks } from "./generation.queries.ts";
import { resultExpiry, type GenerationDeps, type TaskOutputs } from "./generation.task.ts";
import { publishProgress } from "./progress.ts";

/** Why a task whose worker went silent was queued again or failed. */
const STOPPED = "The worker running this generation stopped";

/** The worker's side of a task: every transition is conditional, so a job run twice changes nothing the second time. */
export function createTaskAttempts(deps: GenerationDeps, { fail }: TaskFailures) {
  const { db, config, queue } = deps;

  /** A stalled task under a new job, its old job cancelled, in one transaction; false when another worker took it first. */
  function requeue(t: { id: number; attempts: number; job_id: string | null; user_id: number }): Promise<boolean> {
    return db.$transaction(async (tx) => {
      const jobId = crypto.randomUUID();
      const moved = await requeueStalled.rows(tx, { taskId: t.id, attempts: t.attempts, jobId, error: STOPPED, staleSeconds: config.GENERATION_STALE_SECONDS });
      if (!moved.length) return false;
      await queue.send(tx, t.id, jobId);
      if (t.job_id) await queue.cancel(tx, t.job_id);
      await publishProgress(tx, { taskId: t.id, userId: t.user_id, status: "queued", progress: 0 });
      return true;
    });
  }

  return {
    /**
     * Marks the task generating for a new attempt by this job; null (the job is then a no-op) when the task ended, when
     * another job is now entitled to it (it was recovered from a dead worker), or when a live worker is still running it
     * (its heartbeat is fresh): one task never runs twice at once (docs/decisions/076).
     */
    async beginAttempt(taskId: number, jobId?: string): Promise<GenerationTask | null> {
      const rows = await claimAttempt.rows(db, { taskId, jobId: jobId ?? null, staleSeconds: config.GENERATION_STALE_SECONDS });
      if (!rows.length) return null;
      const t = await db.generationTask.findUniqueOrThrow({ where: { id: taskId } });
      await publishProgress(db, { taskId, userId: t.userId, status: t.status, progress: 0 });
      return t;
    },

    /** The running attempt is alive; false when it is no longer this attempt's to run (recovered, failed, cancelled by a ban). */
    async heartbeat(task: GenerationTask): Promise<boolean> {
      const n = await db.generationTask.updateMany({ where: { id: task.id, status: "running", attempts: task.attempts }, data: { heartbeatAt: new Date() } });
      return n.count === 1;
    },

    async reportProgress(task: GenerationTask, percent: number) {
      const n = await db.generationTask.updateMany({
        where: { id: task.id, status: "running", attempts: task.attempts, progress: { lt: percent } },
        data: { progress: percent },
      });
      if (n.count) await publishProgress(db, { taskId: task.id, userId: task.userId, status: "running", progress: percent });
    },

    /** Which workflow on which server the engine sent this attempt to (one record per try). */
    async noteTry(task: GenerationTask, t: EngineTry) {
      await appendRun.rows(db, { taskId: task.id, attempt: task.attempts, workflow: t.workflow, server: t.server });
    },

    /** Records the outputs; false when this attempt no longer owns the task (a duplicate or superseded run), in which case the caller discards its files. */
    async complete(task: GenerationTask, out: TaskOutputs): Promise<boolean> {
      // an output matching taken-down media is never delivered: the task fails and is refunded (decision 142)
      if (await deps.blocklist.blockedOutput(task.userId, task.id, [out.mainKey, ...out.extraKeys])) {
        await fail(task.id, SCREENING_MESSAGES.blocked, { attempts: task.attempts });
        return false;
      }
      const expiresAt = resultExpiry(config);
      const n = await db.generationTask.updateMany({
        where: { id: task.id, status: "running", attempts: task.attempts },
        data: {
          status: "succeeded",
          progress: 100,
          outputKey: out.mainKey,
          posterKey: out.posterKey,
          outputs: out as object,
          finishedAt: new Date(),
          expiresAt,
          error: null,
        },
      });
      if (!n.count) return false;
      deps.jobs.ended(task.engine, "succeeded", task.startedAt ? (Date.now() - task.startedAt.getTime()) / 1000 : undefined);
      await publishProgress(db, { taskId: task.id, userId: task.userId, status: "succeeded", progress: 100 });
      return true;
    },

    /** Back to "to be generated" while pg-boss waits to retry. */
    async retryLater(task: GenerationTask, error: string) {
      const n = await db.generationTask.updateMany({
        where: { id: task.id, status: "running", attempts: task.attempts },
        data: { status: "queued", progress: 0, error: error.slice(0, 500) },
      });
      if (n.count) deps.jobs.ended(task.engine, "retried");
      if (n.count) await publishProgress(db, { taskId: task.id, userId: task.userId, status: "queued", progress: 0 });
    },

    /**
     * Running tasks whose worker went silent (killed, frozen, cut off) for GENERATION_STALE_SECONDS: each gets a new job
     * and its old job is cancelled, in one transaction, or is failed and refunded when its attempts are used up.
     * Every worker sweeps; the conditional update lets exactly one of them take each task.
     */
    async recoverStalled(): Promise<number> {
      const stale = await stalledTasks.rows(db, { staleSeconds: config.GENERATION_STALE_SECONDS });
      let recovered = 0;
      for (const t of stale) {
        const done = t.attempts > config.GENERATION_RETRY_LIMIT ? await fail(t.id, STOPPED, { attempts: t.attempts }) : await requeue(t);
        if (done) recovered++;
      }
      return recovered;
    },
  };
}
