import crypto from "node:crypto";
import type { Db, SqlTx, Tx } from "../../db/client.ts";
import type { Prisma } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { MSG } from "../../http/messages.ts";
import { ledgerLabel } from "../../contract/credits.ts";
import * as q from "./credits.queries.ts";
import type { LedgerDirection } from "../../contract/metrics.ts";
import type { LedgerMetrics } from "../../metrics/metrics.ts";

export const NOT_ENOUGH_CREDITS = MSG.notEnoughCredits;

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

export interface CreditAdjustment {
  staffId: number;
  userId: number;
  /** Signed: positive adds credits, negative takes them (never below zero). */
  delta: number;
  /** Why staff changed the balance; required, shown in the audit log. */
  reason: string;
  /** Lets the console retry a click safely; a fresh key is used when omitted. */
  idempotencyKey?: string;
}

export interface LedgerMismatch {
  userId: number;
  points: number;
  ledgerSum: number;
}

const MAX_ADJUSTMENT = 1_000_000;

/** The ledger reasons of credits bought with money: an order's credits and a paid membership period's. */
export const BOUGHT_CREDIT_REASONS = ["purchase", "membership_renewal"] as const;

function assertAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`credit amount must be a positive integer, got ${amount}`);
}

function assertMovable(m: LedgerMove): void {
  assertAmount(m.amount);
  if (!m.idempotencyKey) throw new Error("a ledger movement needs an idempotency key");
}

/**
 * The only code that changes a credit balance. Every movement is one call of `credits_move` (migration 0187; one
 * statement, one round trip, alone or inside a caller's transaction or statement): it locks the account row, writes the
 * ledger row — claiming the unique idempotency key and stamped with the balance after it — only when
 * `points + delta >= 0`, and moves the balance only when that row was written. The lock is FOR NO KEY UPDATE, the lock
 * the balance UPDATE takes anyway: it does not wait on the KEY SHARE locks of rows being inserted that reference the
 * account (a generation task created in the same transaction as its charge), so concurrent transactions of one account
 * queue instead of deadlocking. A concurrent retry with the same key waits on the account lock and then finds the key
 * taken (ON CONFLICT DO NOTHING: no error, so a caller's transaction is never aborted by a twin); every movement locks
 * the account before the key, so two never wait on each other in opposite orders. The CHECK constraint on points stays
 * the last gate.
 */
export function createCreditsService(db: Db, audit: AuditService, ledger: LedgerMetrics) {
  async function move(c: Db | Tx | SqlTx, m: LedgerMove, delta: number, countsTowardTotal: boolean, direction: LedgerDirection | null): Promise<LedgerResult> {
    assertMovable(m);
    const r = (await q.move.first(c, { ...m, reference: m.reference ?? null, delta, countsTowardTotal }))!;
    if (r.balance !== null) {
      // counted when moved, not when committed: a caller's transaction rolled back afterwards still counts (decision 277)
      if (direction) ledger.moved(direction, m.amount);
      return { applied: true, balance: r.balance };
    }
    if (r.points === null) throw HttpError.notFound();
    return notMoved(c, m, delta, r.points);
  }

  /**
   * Nothing moved: the key was used before (a retry: nothing moves, but a key reused for a different movement is a bug
   * worth failing loudly on), or the balance was short.
   */
  async function notMoved(c: Db | Tx | SqlTx, m: LedgerMove, delta: number, points: number): Promise<LedgerResult> {
    const earlier = await q.movementOfKey.first(c, { idempotencyKey: m.idempotencyKey });
    if (!earlier) throw new HttpError(402, NOT_ENOUGH_CREDITS);
    if (earlier.userId !== m.userId || earlier.delta !== delta) throw HttpError.conflict("This request was already used for a different credit movement");
    return { applied: false, balance: points };
  }

  function run(m: LedgerMove, delta: number, countsTowardTotal: boolean, direction: LedgerDirection, tx?: Tx | SqlTx): Promise<LedgerResult> {
    return move(tx ?? db, m, delta, countsTowardTotal, direction);
  }

  return {
    /** Adds credits (purchase, bonus, staff adjustment up). */
    grant: (m: LedgerMove, tx?: Tx | SqlTx) => run(m, m.amount, true, "granted", tx),
    /** Takes credits; fails with 402 'Please get points first' and changes nothing when the balance is short. */
    charge: (m: LedgerMove, tx?: Tx | SqlTx) => run(m, -m.amount, false, "spent", tx),
    /**
     * `charge` as a call of `credits_move` to put in the caller's own statement, keyed by SQL over the caller's rows (a
     * chat reply's charge keyed by the reply the same statement inserts, `FROM reply, LATERAL <call> m`): one round
     * trip fewer in the hottest transaction. The call gives one row; its `balance` is NULL when nothing was charged
     * (the balance is short): the caller must then undo its statement and answer 402. Joined to the caller's rows, the
     * balance row is locked only once they are written: a caller that takes a lock in its statement locks before the
     * balance row, in the order its other statements lock them.
     */
    chargeInStatement(m: { userId: number; amount: number; reason: string; reference: Prisma.Sql; idempotencyKey: Prisma.Sql }): Prisma.Sql {
      assertAmount(m.amount);
      return q.moveCall({ ...m, delta: -m.amount, countsTowardTotal: false });
    },
    /** Counts a charge that `chargeInStatement` made, once the caller's statement has charged it. */
    chargedInStatement: (amount: number) => ledger.moved("spent", amount),
    /** Gives back credits a failed task or refunded order took. */
    refund: (m: LedgerMove, tx?: Tx | SqlTx) => run(m, m.amount, false, "refunded", tx),

    /**
     * A staff member changes a balance by hand. The reason is required; the ledger entry and the audit-log row
     * are written in one transaction, so there is never a movement without its audit record or the reverse: the
     * caller's `tx` when given (a spreadsheet of grants applied as one), else its own.
     */
    async adjustCredits(a: CreditAdjustment, tx?: Tx): Promise<LedgerResult> {
      const reason = a.reason?.trim() ?? "";
      if (!reason) throw HttpError.badRequest(MSG.adjustReasonRequired);
      if (reason.length > 500) throw HttpError.badRequest(MSG.adjustReasonTooLong);
      if (!Number.isInteger(a.delta) || a.delta === 0 || Math.abs(a.delta) > MAX_ADJUSTMENT) throw HttpError.badRequest(MSG.adjustDeltaInvalid);
      const key = `staff-adjust:${a.idempotencyKey ?? crypto.randomUUID()}`;
      const adjust = async (tx: Tx) => {
        const m: LedgerMove = {
          userId: a.userId,
          amount: Math.abs(a.delta),
          reason: "staff_adjustment",
          idempotencyKey: key,
          staffId: a.staffId,
          note: reason,
        };
        const result = await move(tx, m, a.delta, a.delta > 0, a.delta > 0 ? "granted" : "spent");
        if (result.applied) {
          await audit.record(tx, {
            staffId: a.staffId,
            action: "adjust_credits",
            resource: "User",
            resourceId: a.userId,
            before: { points: result.balance - a.delta },
            after: { points: result.balance },
            reason,
          });
        }
        return result;
      };
      return tx ? adjust(tx) : db.$transaction(adjust);
    },

    /**
     * Takes as much of `m.amount` as the balance holds, in `tx` (the user's row is locked first, so the amount read
     * is the amount taken); answers what was taken. For taking back credits the person may already have spent: the
     * caller records the rest. The caller's own exactly-once guard decides whether this runs at all.
     */
    async chargeUpTo(m: LedgerMove, tx: Tx): Promise<number> {
      const account = await q.lockedPoints.first(tx, { userId: m.userId });
      if (!account) throw HttpError.notFound();
      const take = Math.min(m.amount, account.points);
      if (take > 0) await move(tx, { ...m, amount: take }, -take, false, "spent");
      return take;
    },

    /** True when a movement with this idempotency key was made (e.g. whether a period's credits were ever granted). */
    async hasEntry(tx: Tx, idempotencyKey: string): Promise<boolean> {
      return (await q.entryOfKey.rows(tx, { idempotencyKey })).length > 0;
    },

    /** The sum of the user's ledger movements for these reasons (e.g. what a creator earned, less what was taken back). */
    async sumOfReasons(userId: number, reasons: readonly string[], c: Tx | Db = db): Promise<number> {
      const r = await c.ledgerEntry.aggregate({ where: { userId, reason: { in: [...reasons] } }, _sum: { delta: true } });
      return r._sum.delta ?? 0;
    },

    /**
     * Whether the charge of this key was paid with money: the account had bought credits (a paid order, a paid
     * membership renewal) before it. False for a charge never made. The balance is one number, so which credits a
     * charge drew on is not recorded; docs/decisions/296 says why this is the rule.
     */
    async paidWithMoney(chargeKey: string): Promise<boolean> {
      return (await q.boughtBeforeCharge.first(db, { idempotencyKey: chargeKey, reasons: [...BOUGHT_CREDIT_REASONS] }))?.bought === true;
    },

    /** Takes one of the user's free generations in `tx`; false when none is left. */
    async useFreeGeneration(tx: Tx | SqlTx, userId: number): Promise<boolean> {
      return (await q.takeFreeGeneration.rows(tx, { userId })).length > 0;
    },

    /** Gives back a free generation a failed task took (the caller's exactly-once guard is the task's status change). */
    async returnFreeGeneration(tx: Tx, userId: number): Promise<void> {
      await tx.user.update({ where: { id: userId }, data: { freeGenerations: { increment: 1 } } });
    },

    async freeGenerations(userId: number): Promise<number | null> {
      const u = await db.user.findUnique({ where: { id: userId }, select: { freeGenerations: true } });
      return u ? u.freeGenerations : null;
    },

    /** Moves a whole balance to another account (a guest merged into the account it logged in to). */
    async transferAll(tx: Tx, fromUserId: number, toUserId: number, key: string): Promise<number> {
      const from = await tx.user.findUniqueOrThrow({ where: { id: fromUserId }, select: { points: true } });
      if (from.points === 0) return 0;
      await move(
        tx,
        { userId: fromUserId, amount: from.points, reason: "merge_out", reference: `user:${toUserId}`, idempotencyKey: `${key}:out` },
        -from.points,
        false,
        // one person's balance changing accounts is neither granted nor spent
        null,
      );
      await move(
        tx,
        { userId: toUserId, amount: from.points, reason: "merge_in", reference: `user:${fromUserId}`, idempotencyKey: `${key}:in` },
        from.points,
        false,
        null,
      );
      return from.points;
    },

    /** The balance, read in `c` (a transaction's own client when the caller is inside one). */
    async balance(userId: number, c: Tx | Db = db): Promise<{ points: number; all_points: number }> {
      const u = await c.user.findUnique({ where: { id: userId }, select: { points: true, allPoints: true } });
      if (!u) throw HttpError.notFound();
      return { points: u.points, all_points: u.allPoints };
    },

    /** One page of the person's own movements, newest first, labelled for the app's history (docs/decisions/302). */
    async history(userId: number, page: number, limit: number) {
      const where = { userId };
      const [rows, total] = await Promise.all([
        db.ledgerEntry.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: (page - 1) * limit, take: limit }),
        db.ledgerEntry.count({ where }),
      ]);
      const list = rows.map((r) => ({
        id: r.id,
        delta: r.delta,
        balance_after: r.balanceAfter,
        reason: r.reason,
        label: ledgerLabel(r.reason),
        created_at: r.createdAt,
      }));
      return { list, total, page, limit };
    },

    /** Accounts whose balance differs from the sum of their ledger entries; empty when the books are right. */
    async findLedgerMismatches(userIds?: number[]): Promise<LedgerMismatch[]> {
      const rows = await q.ledgerMismatches.rows(db, { userIds: userIds ?? null });
      return rows.map((r) => ({ userId: r.user_id, points: r.points, ledgerSum: r.ledger_sum }));
    },
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
