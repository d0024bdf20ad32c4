import { ENDED_TASK_STATUSES } from "../../contract/generation.ts";
import type { Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { resultExpiry, unexpired, type GenerationDeps, type TaskOutputs } from "./generation.task.ts";
import type { createTaskReads } from "./generation.reads.ts";
import { publishProgress } from "./progress.ts";

/** A finished result's life: removed or shared by its owner, kept while on a creator page, expired when its time comes. */
export function createTaskResults(deps: GenerationDeps, { own }: Pick<ReturnType<typeof createTaskReads>, "own">) {
  const { db, config, storage } = deps;

  return {
    /**
     * Removes one of the user's finished items from their results (the consumer's delete). A removed task leaves every
     * list and detail answer at once (they read only active tasks); its media stays in storage until the result's
     * normal expiry deletes it. A task still rendering cannot be removed (SPEC.md §4).
     */
    async remove(userId: number, id: number): Promise<void> {
      const removed = await db.generationTask.updateMany({
        where: { id, userId, state: "active", status: { in: [...ENDED_TASK_STATUSES] } },
        data: { state: "removed" },
      });
      if (removed.count === 1) {
        // a creation kept for a creator page leaves the page with it, so it expires like any other (decision 216)
        await db.generationTask.updateMany({ where: { id, expiresAt: null, status: "succeeded" }, data: { expiresAt: resultExpiry(config) } });
        return;
      }
      const task = await db.generationTask.findFirst({ where: { id, userId, state: "active" }, select: { status: true } });
      // another user's task, a removed one and a missing one all look the same
      if (!task) throw HttpError.notFound();
      throw HttpError.conflict(MSG.stillGenerating);
    },

    /** Shares a finished creation in the home gallery (or stops sharing it); only the owner's succeeded, active, unexpired tasks can be public. */
    async setPublic(userId: number, id: number, isPublic: boolean) {
      const changed = await db.generationTask.updateMany({
        where: { id, userId, state: "active", ...(isPublic ? { status: "succeeded" as const, ...unexpired() } : {}) },
        data: { isPublic },
      });
      if (changed.count === 0) {
        // another user's, a removed and a missing task look the same; the owner's unfinished or failed one is refused
        await own(userId, id);
        throw HttpError.conflict("Only a finished creation can be shared");
      }
      return { id, public: isPublic ? 1 : 0 };
    },

    /** Guest merge (auth): the guest's tasks become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.generationTask.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /**
     * Account erasure (privacy, decision 262), after cancelForAccount has failed and refunded what was unfinished: the
     * account's tasks go; their files once the erasure commits. Copies under legal hold are the evidence store's own.
     */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      const rows = await tx.generationTask.findMany({ where: { userId }, select: { outputKey: true, posterKey: true, outputs: true } });
      await tx.generationTask.deleteMany({ where: { userId } });
      return rows.flatMap((r) => {
        const out = r.outputs as Partial<TaskOutputs> | null;
        return [r.outputKey, r.posterKey, out?.mainKey, out?.posterKey, ...(out?.extraKeys ?? [])].filter((k): k is string => !!k);
      });
    },

    /**
     * A creation published on a creator page stops expiring while it is there (decision 216): its expiry is cleared,
     * which the expiry sweep never picks. Run in the creators domain's publishing transaction, so the library row and
     * the hold commit together; the conditional update takes the task's row lock, so it and the sweep's own update
     * cannot both win. False when the task is not the user's finished, active, unexpired creation.
     */
    async keepForPage(tx: Tx, userId: number, id: number): Promise<boolean> {
      const kept = await tx.generationTask.updateMany({
        where: { id, userId, state: "active", status: "succeeded", outputKey: { not: null }, ...unexpired() },
        data: { expiresAt: null },
      });
      return kept.count > 0;
    },

    /** Taken off its page (in the creators domain's transaction): the result expires like a fresh one, from now. */
    async releaseFromPage(tx: Tx, id: number): Promise<void> {
      await tx.generationTask.updateMany({ where: { id, expiresAt: null, status: "succeeded" }, data: { expiresAt: resultExpiry(config) } });
    },

    /** Results past GENERATION_RESULT_TTL_HOURS: marked expired and their files deleted. */
    async expireResults(limit = 100): Promise<number> {
      const now = new Date();
      const due = await db.generationTask.findMany({ where: { status: "succeeded", expiresAt: { lte: now } }, take: limit });
      let expired = 0;
      for (const t of due) {
        // the expiry is checked again in the update: a creation published meanwhile has none any more
        const n = await db.generationTask.updateMany({ where: { id: t.id, status: "succeeded", expiresAt: { lte: now } }, data: { status: "expired" } });
        if (!n.count) continue;
        expired++;
        const outputs = (t.outputs ?? {}) as Partial<TaskOutputs>;
        for (const key of [t.outputKey, t.posterKey, ...(outputs.extraKeys ?? [])]) if (key) await storage.delete(key).catch(() => undefined);
        await publishProgress(db, { taskId: t.id, userId: t.userId, status: "expired", progress: 100 });
      }
      return expired;
    },
  };
}
