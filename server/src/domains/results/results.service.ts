import type { Db } from "../../db/client.ts";
import { ENDED_TASK_STATUSES } from "../../contract/generation.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";

/**
 * The user's side of their generated items beyond what the generation domain answers: removing one.
 * A removed task leaves every list and detail answer at once (they read only active tasks); its media stays in
 * storage until the result's normal expiry deletes it. A task still rendering cannot be removed (SPEC.md §4).
 */
export function createResultsService(db: Db) {
  return {
    async remove(userId: number, id: number): Promise<void> {
      const removed = await db.generationTask.updateMany({
        where: { id, userId, state: "active", status: { in: [...ENDED_TASK_STATUSES] } },
        data: { state: "removed" },
      });
      if (removed.count === 1) return;
      const task = await db.generationTask.findFirst({ where: { id, userId, state: "active" }, select: { status: true } });
      // another user's task, a removed one and a missing one all look the same
      if (!task) throw HttpError.notFound();
      throw HttpError.conflict(MSG.stillGenerating);
    },
  };
}

export type ResultsService = ReturnType<typeof createResultsService>;
