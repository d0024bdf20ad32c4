import type { SqlRunner } from "../../db/client.ts";
import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/** A movement as `credits_move` takes it; `reference` and `idempotencyKey` are SQL text (a value, or an expression). */
export interface MoveCall {
  userId: number;
  /** Signed: what the balance moves by. */
  delta: number;
  /** Whether it counts toward all_points (what the account ever got). */
  countsTowardTotal: boolean;
  reason: string;
  reference: Prisma.Sql;
  idempotencyKey: Prisma.Sql;
  staffId?: number;
  note?: string;
}

/**
 * A call of `credits_move` (migration 0187), the only SQL that moves a balance: one row (`balance` after the movement,
 * NULL when nothing moved; `points` before it, NULL when there is no such account). A caller's statement may join it
 * to its own rows (`FROM reply, LATERAL <call> m`), so a charge can be keyed by a row that statement inserts.
 */
export function moveCall(m: MoveCall): Prisma.Sql {
  return Prisma.sql`credits_move(${m.userId}::int, ${m.delta}::int, ${m.countsTowardTotal}::boolean, ${m.reason}::text, ${m.reference}, ${m.idempotencyKey}, ${m.staffId ?? null}::int, ${m.note ?? null}::text)`;
}

const newAccount = statement({
  columns: { id: col.int },
  sql: (p: { points: number }) => Prisma.sql`INSERT INTO users (uuid, points, updated_at) VALUES (gen_random_uuid(), ${p.points}, now()) RETURNING id`,
  example: { points: 0 },
});

/** An account with a balance, for the examples of statements that move credits (tests/api/queries.test.ts). */
export async function exampleAccount(run: SqlRunner, points: number): Promise<number> {
  return (await newAccount.first(run, { points }))!.id;
}

type Movement = Omit<MoveCall, "reference" | "idempotencyKey"> & { reference: string | null; idempotencyKey: string };

/** A movement on its own: one statement, one round trip, alone or in a caller's transaction. */
export const move = statement({
  columns: { balance: col.int.orNull, points: col.int.orNull },
  sql: (m: Movement) =>
    Prisma.sql`SELECT balance, points FROM ${moveCall({ ...m, reference: Prisma.sql`${m.reference}::text`, idempotencyKey: Prisma.sql`${m.idempotencyKey}::text` })}`,
  example: async (run): Promise<Movement> => ({
    userId: await exampleAccount(run, 10),
    delta: -3,
    countsTowardTotal: false,
    reason: "example",
    reference: "example",
    idempotencyKey: "example",
  }),
});

/** The movement an idempotency key was used for. */
export const movementOfKey = statement({
  columns: { userId: col.int, delta: col.int },
  sql: (p: { idempotencyKey: string }) => Prisma.sql`SELECT user_id AS "userId", delta FROM ledger_entries WHERE idempotency_key = ${p.idempotencyKey}`,
  example: { idempotencyKey: "example" },
});

/** An account's balance, its row locked until the transaction ends. */
export const lockedPoints = statement({
  columns: { points: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT points FROM users WHERE id = ${p.userId} FOR UPDATE`,
  example: { userId: 1 },
});

/** A row when a movement with this idempotency key was made. */
export const entryOfKey = statement({
  columns: { found: col.int },
  sql: (p: { idempotencyKey: string }) => Prisma.sql`SELECT 1 AS found FROM ledger_entries WHERE idempotency_key = ${p.idempotencyKey}`,
  example: { idempotencyKey: "example" },
});

/**
 * Whether the charge with this idempotency key was made by an account that had bought credits before it (an entry of
 * one of `reasons`, written earlier than the charge); no row when there is no such charge (a free generation).
 */
export const boughtBeforeCharge = statement({
  columns: { bought: col.bool },
  sql: (p: { idempotencyKey: string; reasons: string[] }) => Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM ledger_entries b WHERE b.user_id = c.user_id AND b.id < c.id AND b.reason = ANY(${p.reasons}::text[])) AS bought
    FROM ledger_entries c WHERE c.idempotency_key = ${p.idempotencyKey}`,
  example: { idempotencyKey: "example", reasons: ["purchase"] },
});

/** Takes one of the account's free generations: a row when one was left. */
export const takeFreeGeneration = statement({
  columns: { id: col.int },
  sql: (p: { userId: number }) =>
    Prisma.sql`UPDATE users SET free_generations = free_generations - 1 WHERE id = ${p.userId} AND free_generations > 0 RETURNING id`,
  example: { userId: 1 },
});

/** Accounts (all, or these) whose balance differs from the sum of their ledger entries. */
export const ledgerMismatches = statement({
  columns: { user_id: col.int, points: col.int, ledger_sum: col.int },
  sql: (p: { userIds: number[] | null }) => Prisma.sql`
    SELECT u.id AS user_id, u.points, COALESCE(l.total, 0)::int AS ledger_sum
    FROM users u LEFT JOIN (SELECT user_id, SUM(delta) AS total FROM ledger_entries GROUP BY user_id) l ON l.user_id = u.id
    WHERE u.points <> COALESCE(l.total, 0) AND (${p.userIds}::int[] IS NULL OR u.id = ANY(${p.userIds}::int[]))`,
  example: { userIds: null as number[] | null },
});
