import type { FailedInput } from "../../contract/engines.ts";
import type { Tx } from "../../db/client.ts";
import type { GenerationTask } from "../../db/generated/client.ts";
import { failTask, failTasks } from "./generation.queries.ts";
import type { GenerationDeps } from "./generation.task.ts";
import { publishProgress } from "./progress.ts";

/** Failing tasks, each refunded exactly once: a worker's last attempt, a dead-lettered job, a banned account's tasks. */
export function createTaskFailures({ db, credits, jobs }: GenerationDeps) {
  /** Gives back what a task that just failed took: its free generation, or its credits through the ledger (once, by key). */
  async function giveBack(tx: Tx, taskId: number): Promise<GenerationTask> {
    const t = await tx.generationTask.findUniqueOrThrow({ where: { id: taskId } });
    if (t.paidWith === "free") {
      await credits.returnFreeGeneration(tx, t.userId);
    } else if (t.cost > 0) {
      await credits.refund(
        { userId: t.userId, amount: t.cost, reason: "generation_refund", reference: `task:${t.id}`, idempotencyKey: `task:${t.id}:refund` },
        tx,
      );
    }
    return t;
  }

  /**
   * Fails the task and gives back what it took, exactly once however often it is called. With `only`, only while that
   * attempt or that job still owns the task (a worker's last attempt; a dead-lettered job). `failedInput`: the
   * request's own input that failed it, which the person is told (decision 335).
   */
  async function fail(taskId: number, error: string, only: { attempts?: number; jobId?: string | null } = {}, failedInput?: FailedInput): Promise<boolean> {
    const task = await db.$transaction(async (tx) => {
      const rows = await failTask.rows(tx, { taskId, error: error.slice(0, 500), failedInput, ...only });
      if (!rows.length) return null;
      return giveBack(tx, taskId);
    });
    if (!task) return false;
    jobs.ended(task.engine, "failed");
    await publishProgress(db, { taskId, userId: task.userId, status: "failed", progress: task.progress });
    return true;
  }

  /**
   * A banned account's unfinished tasks are failed (and refunded) in the ban's transaction: a worker still rendering
   * one sees it at its next heartbeat and stops, and its result can no longer be recorded or delivered.
   */
  async function cancelForAccount(tx: Tx, userId: number, error: string): Promise<void> {
    await givenBack(tx, await failTasks.rows(tx, { userId, error: error.slice(0, 500) }));
  }

  /** Refunds the tasks just failed in `tx` and tells their streams, once the transaction commits. */
  async function givenBack(tx: Tx, failed: { id: number }[]): Promise<void> {
    for (const { id } of failed) {
      const t = await giveBack(tx, id);
      await publishProgress(tx, { taskId: id, userId: t.userId, status: "failed", progress: t.progress });
    }
  }

  /**
   * Chosen unfinished tasks are failed and refunded in the caller's transaction (issue 50: a chat conversation deleted,
   * a character taken down while its picture renders); finished or already failed ones are left as they are.
   */
  async function cancelTasks(tx: Tx, ids: number[], error: string): Promise<void> {
    if (ids.length) await givenBack(tx, await failTasks.rows(tx, { ids, error: error.slice(0, 500) }));
  }

  return { fail, cancelForAccount, cancelTasks };
}

export type TaskFailures = ReturnType<typeof createTaskFailures>;
