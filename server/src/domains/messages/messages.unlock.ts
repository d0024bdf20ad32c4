import type { Db, Tx } from "../../db/client.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { MESSAGE_LEDGER_REASON, MESSAGE_MESSAGES as M } from "../../contract/messages.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { holdLivePage } from "../creators/creators.page-hold.ts";
import type { MessageEvents } from "./messages.events.ts";
import { claimUnlock } from "./messages.queries.ts";

type Credits = Pick<CreditsService, "charge" | "grant">;

/** The ledger keys of an unlock's two movements: named by the message, so each moves once however often it is asked. */
export const unlockKey = (messageId: number, movement: "charge" | "earn") => `message-unlock:${messageId}:${movement}`;

/**
 * The fan's charge and the creator's earning, in the order of the accounts' ids (as a tip's, creator-tips.service.ts):
 * two transactions moving credits between the same two accounts lock them lowest id first and queue, never deadlock.
 */
async function movePrice(credits: Credits, tx: Tx, u: { messageId: number; price: number; fanId: number; creatorId: number }) {
  const reference = `message:${u.messageId}`;
  const charge = () =>
    credits.charge({ userId: u.fanId, amount: u.price, reason: MESSAGE_LEDGER_REASON.unlock, idempotencyKey: unlockKey(u.messageId, "charge"), reference }, tx);
  const earn = () =>
    credits.grant(
      { userId: u.creatorId, amount: u.price, reason: EARNING_REASON.messageUnlock, idempotencyKey: unlockKey(u.messageId, "earn"), reference },
      tx,
    );
  if (u.fanId < u.creatorId) {
    await charge();
    await earn();
  } else {
    await earn();
    await charge();
  }
}

/**
 * Pay-per-view (issue 32 item 6, docs/decisions/310): the fan opens a locked message once, charged once. The claim of
 * the row, the fan's charge and the creator's earning commit together: a short balance (402, SPEC's 'Please get
 * points first'), a ban of either side that committed first, or a page taken down leaves nothing. Of many unlocks at
 * once, one claims the row; the others wait on it and find it unlocked (a 402 of the first leaves it to the next).
 */
export function createUnlocks(db: Db, credits: Credits, events: MessageEvents) {
  return async function unlock(fanId: number, messageId: number): Promise<void> {
    const m = await db.message.findUnique({ where: { id: messageId }, include: { thread: true } });
    if (!m || m.thread.fanUserId !== fanId || m.state !== "active") throw HttpError.notFound();
    if (m.price === 0) throw HttpError.badRequest(M.notLocked);
    if (m.unlockedAt) return;
    await db.$transaction(async (tx) => {
      await holdLivePage(tx, m.thread.creatorPageId);
      const claimed = await claimUnlock.first(tx, { messageId, fanId, at: new Date() });
      if (!claimed) return;
      const u = { messageId, price: claimed.price, fanId, creatorId: claimed.creator_user_id };
      await movePrice(credits, tx, u);
      // the fan's row is locked now (the charge): a ban that committed before it is seen by this fresh statement
      if (!(await tx.user.count({ where: { id: fanId, bannedAt: null } }))) throw HttpError.forbidden(M.fanBanned);
      await events.unlocked(tx, { ...u, threadId: claimed.thread_id });
    });
  };
}
