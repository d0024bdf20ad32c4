import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";

export const NOT_ENOUGH_CREDITS = "Please get points first";

export interface LedgerMove {
  userId: number;
  /** Positive credits. */
  amount: number;
  reason: string;
  /** Unique per intended movement: retrying with the same key never moves credits twice. */
  idempotencyKey: string;
  reference?: string;
  staffId?: number;
  note?: string;
}

export interface LedgerResult {
  /** False when the idempotency key was already used: nothing moved this time. */
  applied: boolean;
  balance: number;
}

/**
 * The only code that changes a credit balance. Every movement is one ledger row plus a conditional
 * balance update in the same transaction; the unique idempotency key makes retries harmless and
 * the `points >= amount` condition (backed by a CHECK constraint) keeps balances non-negative.
 */
export function createCreditsService(db: Db) {
  async function move(tx: Tx, m: LedgerMove, delta: number, countsTowardTotal: boolean): Promise<LedgerResult> {
    if (!Number.isInteger(m.amount) || m.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${m.amount}`);
    const claimed = await tx.$queryRaw<{ id: number }[]>`
      INSERT INTO ledger_entries (user_id, delta, balance_after, reason, reference, idempotency_key, staff_id, note)
      VALUES (${m.userId}, ${delta}, 0, ${m.reason}, ${m.reference ?? null}, ${m.idempotencyKey}, ${m.staffId ?? null}, ${m.note ?? null})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id`;
    if (claimed.length === 0) {
      const user = await tx.user.findUniqueOrThrow({ where: { id: m.userId }, select: { points: true } });
      return { applied: false, balance: user.points };
    }
    const updated = await tx.$queryRaw<{ points: number }[]>`
      UPDATE users SET points = points + ${delta},
        all_points = all_points + ${countsTowardTotal ? delta : 0}, updated_at = now()
      WHERE id = ${m.userId} AND points + ${delta} >= 0
      RETURNING points`;
    if (updated.length === 0) throw new HttpError(402, NOT_ENOUGH_CREDITS);
    await tx.ledgerEntry.update({ where: { id: claimed[0].id }, data: { balanceAfter: updated[0].points } });
    return { applied: true, balance: updated[0].points };
  }

  function inTx<T>(tx: Tx | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return tx ? fn(tx) : db.$transaction(fn);
  }

  return {
    /** Adds credits (purchase, bonus, staff adjustment up). */
    grant: (m: LedgerMove, tx?: Tx) => inTx(tx, (t) => move(t, m, m.amount, true)),
    /** Takes credits; fails with 402 'Please get points first' and changes nothing when the balance is short. */
    charge: (m: LedgerMove, tx?: Tx) => inTx(tx, (t) => move(t, m, -m.amount, false)),
    /** Gives back credits a failed task or refunded order took. */
    refund: (m: LedgerMove, tx?: Tx) => inTx(tx, (t) => move(t, m, m.amount, false)),

    /** Moves a whole balance to another account (a guest merged into the account it logged in to). */
    async transferAll(tx: Tx, fromUserId: number, toUserId: number, key: string): Promise<number> {
      const from = await tx.user.findUniqueOrThrow({ where: { id: fromUserId }, select: { points: true } });
      if (from.points === 0) return 0;
      await move(tx, { userId: fromUserId, amount: from.points, reason: "merge_out", reference: `user:${toUserId}`, idempotencyKey: `${key}:out` }, -from.points, false);
      await move(tx, { userId: toUserId, amount: from.points, reason: "merge_in", reference: `user:${fromUserId}`, idempotencyKey: `${key}:in` }, from.points, false);
      return from.points;
    },

    async balance(userId: number): Promise<{ points: number; all_points: number }> {
      const u = await db.user.findUnique({ where: { id: userId }, select: { points: true, allPoints: true } });
      if (!u) throw HttpError.notFound();
      return { points: u.points, all_points: u.allPoints };
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
