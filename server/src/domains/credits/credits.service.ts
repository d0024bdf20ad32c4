import crypto from "node:crypto";
import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { MSG } from "../../http/messages.ts";

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
const PG_FOREIGN_KEY_VIOLATION = "23503";
const PG_UNIQUE_VIOLATION = "23505";

function assertMovable(m: LedgerMove): void {
  if (!Number.isInteger(m.amount) || m.amount <= 0) throw new Error(`credit amount must be a positive integer, got ${m.amount}`);
  if (!m.idempotencyKey) throw new Error("a ledger movement needs an idempotency key");
}

/**
 * The only code that changes a credit balance. Every movement is one ledger row plus a conditional
 * balance update in the same transaction: the row claims the unique idempotency key first (a concurrent
 * retry waits on it and then does nothing), and the `points + delta >= 0` condition (backed by a CHECK
 * constraint) keeps balances non-negative under any concurrency because the UPDATE locks the user row.
 */
export function createCreditsService(db: Db, audit: AuditService) {
  async function move(tx: Tx, m: LedgerMove, delta: number, countsTowardTotal: boolean): Promise<LedgerResult> {
    assertMovable(m);
    let claimed: { id: number }[];
    try {
      claimed = await tx.$queryRaw<{ id: number }[]>`
        INSERT INTO ledger_entries (user_id, delta, balance_after, reason, reference, idempotency_key, staff_id, note)
        VALUES (${m.userId}, ${delta}, 0, ${m.reason}, ${m.reference ?? null}, ${m.idempotencyKey}, ${m.staffId ?? null}, ${m.note ?? null})
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id`;
    } catch (err) {
      if (pgCode(err) === PG_FOREIGN_KEY_VIOLATION) throw HttpError.notFound();
      throw err;
    }
    if (claimed.length === 0) return replayed(tx, m, delta);
    // One statement moves the balance and stamps the entry with it, so the entry never shows a stale balance.
    const updated = await tx.$queryRaw<{ balance_after: number }[]>`
      WITH moved AS (
        UPDATE users SET points = points + ${delta},
          all_points = all_points + ${countsTowardTotal ? delta : 0}, updated_at = now()
        WHERE id = ${m.userId} AND points + ${delta} >= 0
        RETURNING points)
      UPDATE ledger_entries SET balance_after = moved.points FROM moved
      WHERE ledger_entries.id = ${claimed[0].id}
      RETURNING balance_after`;
    if (updated.length === 0) throw new HttpError(402, NOT_ENOUGH_CREDITS);
    return { applied: true, balance: updated[0].balance_after };
  }

  /** A key seen before: nothing moves, but a key reused for a different movement is a bug worth failing loudly on. */
  async function replayed(tx: Tx, m: LedgerMove, delta: number): Promise<LedgerResult> {
    const earlier = await tx.ledgerEntry.findUniqueOrThrow({ where: { idempotencyKey: m.idempotencyKey }, select: { userId: true, delta: true } });
    if (earlier.userId !== m.userId || earlier.delta !== delta) throw HttpError.conflict("This request was already used for a different credit movement");
    const user = await tx.user.findUniqueOrThrow({ where: { id: m.userId }, select: { points: true } });
    return { applied: false, balance: user.points };
  }

  /**
   * The common case outside a caller's transaction in one autocommit statement (one round trip, no interactive
   * transaction): move the balance only if the key is unused and the balance suffices, and write the entry from the
   * moved balance. Anything else — a replay, a short balance, an unknown user, or a concurrent twin that wins the
   * unique key (the statement then fails whole) — is left to the transactional path, which tells them apart.
   */
  async function moveAlone(m: LedgerMove, delta: number, countsTowardTotal: boolean): Promise<LedgerResult | null> {
    try {
      const rows = await db.$queryRaw<{ balance: number | null }[]>`
        WITH moved AS (
          UPDATE users SET points = points + ${delta},
            all_points = all_points + ${countsTowardTotal ? delta : 0}, updated_at = now()
          WHERE id = ${m.userId} AND points + ${delta} >= 0
            AND NOT EXISTS (SELECT 1 FROM ledger_entries WHERE idempotency_key = ${m.idempotencyKey})
          RETURNING points),
        entry AS (
          INSERT INTO ledger_entries (user_id, delta, balance_after, reason, reference, idempotency_key, staff_id, note)
          SELECT ${m.userId}, ${delta}, points, ${m.reason}, ${m.reference ?? null}, ${m.idempotencyKey}, ${m.staffId ?? null}, ${m.note ?? null} FROM moved
          RETURNING balance_after)
        SELECT (SELECT balance_after FROM entry) AS balance`;
      return rows[0]?.balance === null || rows[0]?.balance === undefined ? null : { applied: true, balance: rows[0].balance };
    } catch (err) {
      if (pgCode(err) === PG_UNIQUE_VIOLATION) return null;
      throw err;
    }
  }

  async function run(m: LedgerMove, delta: number, countsTowardTotal: boolean, tx?: Tx): Promise<LedgerResult> {
    if (tx) return move(tx, m, delta, countsTowardTotal);
    assertMovable(m);
    return (await moveAlone(m, delta, countsTowardTotal)) ?? db.$transaction((t) => move(t, m, delta, countsTowardTotal));
  }

  return {
    /** Adds credits (purchase, bonus, staff adjustment up). */
    grant: (m: LedgerMove, tx?: Tx) => run(m, m.amount, true, tx),
    /** Takes credits; fails with 402 'Please get points first' and changes nothing when the balance is short. */
    charge: (m: LedgerMove, tx?: Tx) => run(m, -m.amount, false, tx),
    /** Gives back credits a failed task or refunded order took. */
    refund: (m: LedgerMove, tx?: Tx) => run(m, m.amount, false, tx),

    /**
     * A staff member changes a balance by hand. The reason is required; the ledger entry and the audit-log row
     * are written in one transaction, so there is never a movement without its audit record or the reverse.
     */
    async adjustCredits(a: CreditAdjustment): Promise<LedgerResult> {
      const reason = a.reason?.trim() ?? "";
      if (!reason) throw HttpError.badRequest(MSG.adjustReasonRequired);
      if (reason.length > 500) throw HttpError.badRequest(MSG.adjustReasonTooLong);
      if (!Number.isInteger(a.delta) || a.delta === 0 || Math.abs(a.delta) > MAX_ADJUSTMENT) throw HttpError.badRequest(MSG.adjustDeltaInvalid);
      const key = `staff-adjust:${a.idempotencyKey ?? crypto.randomUUID()}`;
      return db.$transaction(async (tx) => {
        const m: LedgerMove = { userId: a.userId, amount: Math.abs(a.delta), reason: "staff_adjustment", idempotencyKey: key, staffId: a.staffId, note: reason };
        const result = await move(tx, m, a.delta, a.delta > 0);
        if (result.applied) {
          await audit.record(tx, { staffId: a.staffId, action: "adjust_credits", resource: "User", resourceId: a.userId, before: { points: result.balance - a.delta }, after: { points: result.balance }, reason });
        }
        return result;
      });
    },

    /**
     * Takes as much of `m.amount` as the balance holds, in `tx` (the user's row is locked first, so the amount read
     * is the amount taken); answers what was taken. For taking back credits the person may already have spent: the
     * caller records the rest. The caller's own exactly-once guard decides whether this runs at all.
     */
    async chargeUpTo(m: LedgerMove, tx: Tx): Promise<number> {
      const rows = await tx.$queryRaw<{ points: number }[]>`SELECT points FROM users WHERE id = ${m.userId} FOR UPDATE`;
      if (!rows[0]) throw HttpError.notFound();
      const take = Math.min(m.amount, rows[0].points);
      if (take > 0) await move(tx, { ...m, amount: take }, -take, false);
      return take;
    },

    /** The sum of the user's ledger movements for these reasons (e.g. what a creator earned, less what was taken back). */
    async sumOfReasons(userId: number, reasons: readonly string[], c: Tx | Db = db): Promise<number> {
      const r = await c.ledgerEntry.aggregate({ where: { userId, reason: { in: [...reasons] } }, _sum: { delta: true } });
      return r._sum.delta ?? 0;
    },

    /** Takes one of the user's free generations in `tx`; false when none is left. */
    async useFreeGeneration(tx: Tx, userId: number): Promise<boolean> {
      const rows = await tx.$queryRaw<{ id: number }[]>`UPDATE users SET free_generations = free_generations - 1 WHERE id = ${userId} AND free_generations > 0 RETURNING id`;
      return rows.length > 0;
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
      await move(tx, { userId: fromUserId, amount: from.points, reason: "merge_out", reference: `user:${toUserId}`, idempotencyKey: `${key}:out` }, -from.points, false);
      await move(tx, { userId: toUserId, amount: from.points, reason: "merge_in", reference: `user:${fromUserId}`, idempotencyKey: `${key}:in` }, from.points, false);
      return from.points;
    },

    async balance(userId: number): Promise<{ points: number; all_points: number }> {
      const u = await db.user.findUnique({ where: { id: userId }, select: { points: true, allPoints: true } });
      if (!u) throw HttpError.notFound();
      return { points: u.points, all_points: u.allPoints };
    },

    /** Accounts whose balance differs from the sum of their ledger entries; empty when the books are right. */
    async findLedgerMismatches(userIds?: number[]): Promise<LedgerMismatch[]> {
      const rows = await db.$queryRaw<{ user_id: number; points: number; ledger_sum: bigint }[]>`
        SELECT u.id AS user_id, u.points, COALESCE(l.total, 0)::bigint AS ledger_sum
        FROM users u LEFT JOIN (SELECT user_id, SUM(delta) AS total FROM ledger_entries GROUP BY user_id) l ON l.user_id = u.id
        WHERE u.points <> COALESCE(l.total, 0) AND (${userIds ?? null}::int[] IS NULL OR u.id = ANY(${userIds ?? null}::int[]))`;
      return rows.map((r) => ({ userId: r.user_id, points: r.points, ledgerSum: Number(r.ledger_sum) }));
    },
  };
}

function pgCode(err: unknown): string | undefined {
  const e = err as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } }; cause?: { code?: string } };
  return e?.meta?.driverAdapterError?.cause?.originalCode ?? e?.meta?.code ?? e?.cause?.code ?? (e?.code && /^\d{5}$/.test(e.code) ? e.code : undefined);
}

export type CreditsService = ReturnType<typeof createCreditsService>;
