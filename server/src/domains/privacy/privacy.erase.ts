import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/media-storage.ts";

/**
 * One domain's part of an account erasure (decision 262), run in the erasure's transaction on that domain's own tables:
 * it deletes or anonymises them and answers the storage keys of files to delete once the transaction has committed.
 */
export type EraseUserRows = (tx: Tx, userId: number) => Promise<string[]>;

export interface ErasureDeps {
  db: Db;
  log: Logger;
  storage: Pick<MediaStorage, "delete">;
  /** payments: the provider stops renewing a running plan (a 404 means there is none) */
  cancelPlan(userId: number): Promise<unknown>;
  /** training: every GPU server deletes its copies of the account's character models (a network call per server) */
  evictModels(userId: number): Promise<void>;
  /** generation: unfinished tasks are failed and refunded, as a ban does */
  cancelTasks(tx: Tx, userId: number): Promise<void>;
  /** each domain's part, in order: the ones that refer to others' rows first, auth (the users row) last */
  owners: EraseUserRows[];
}

/**
 * Erases a deletion that is still pending and due, once: the deletion row is locked and marked in the same transaction
 * as every domain's part, so a second run of the job (pg-boss may run one twice) finds it no longer pending. Files go
 * after the commit; a file left behind by a crash then is only bytes nothing refers to (the key is random).
 */
export function createErasure(d: ErasureDeps) {
  return async function eraseDue(deletionId: number, now = new Date()): Promise<boolean> {
    const due = await d.db.accountDeletion.findFirst({ where: { id: deletionId, status: "pending", eraseAfter: { lte: now } } });
    if (!due) return false;
    // outside the transaction: the provider's answer may take seconds; a refusal leaves the job to run again later
    await d.cancelPlan(due.userId).catch((err: unknown) => {
      if (!(err instanceof HttpError && err.status === 404)) throw err;
    });
    await d.evictModels(due.userId);
    const keys = await d.db.$transaction(
      async (tx) => {
        const marked = await tx.accountDeletion.updateMany({ where: { id: deletionId, status: "pending" }, data: { status: "erased", erasedAt: now } });
        if (marked.count === 0) return null;
        await d.cancelTasks(tx, due.userId);
        const found: string[] = [];
        for (const erase of d.owners) found.push(...(await erase(tx, due.userId)));
        return found;
      },
      { timeout: 120_000 },
    );
    if (!keys) return false;
    for (const key of new Set(keys)) await d.storage.delete(key).catch((err: unknown) => d.log.warn({ err, key }, "erased account: a file was not deleted"));
    d.log.info({ userId: due.userId, files: keys.length }, "account erased");
    return true;
  };
}
