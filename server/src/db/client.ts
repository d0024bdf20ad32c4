import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "./generated/client.ts";
import { guardPool, insideTransaction, poolOptions, throwInsideTransaction, type PoolInsideTransactionError, type SessionLimits } from "./pool-guard.ts";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface DbOptions {
  /** Limits every connection carries; none when omitted (a script's or bench's own database). */
  limits?: SessionLimits;
  /** A connection asked for inside an open transaction: thrown unless given (docs/decisions/244). */
  onPoolInsideTransaction?: (err: PoolInsideTransactionError) => void;
}

/**
 * How long an interactive transaction waits to start and may last. Prisma's default wait of 2 s turns a burst of
 * concurrent credit movements into errors while the pool is busy (docs/decisions/010); past the pool's own wait it only
 * hides which limit was hit, so it waits as long as the pool does. A transaction may last a few of its statements.
 */
function transactionOptions(limits: SessionLimits | undefined) {
  return limits ? { maxWait: limits.poolWaitMs, timeout: Math.max(15_000, 2 * limits.statementTimeoutMs) } : { maxWait: 10_000, timeout: 15_000 };
}

const pools = new WeakMap<Db, pg.Pool>();

/** A Prisma client over one pg pool; the pool is ended with `$disconnect()`. */
export function createDb(databaseUrl: string, poolSize = 10, options: DbOptions = {}): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, ...poolOptions(options.limits) });
  guardPool(pool, options.onPoolInsideTransaction ?? throwInsideTransaction);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), transactionOptions: transactionOptions(options.limits) });
  guardTransactions(db, options.limits);
  pools.set(db, pool);
  return db;
}

/**
 * Marks the body of every interactive transaction, so that the pool refuses it a second connection. A transaction that
 * asks to last longer than a connection may sit idle in one (a preview rendered while its lock is held) gets that
 * longer idle limit for itself alone.
 */
function guardTransactions(db: Db, limits: SessionLimits | undefined) {
  const transaction = db.$transaction.bind(db) as (arg: unknown, options?: { timeout?: number }) => Promise<unknown>;
  db.$transaction = ((arg: unknown, options?: { timeout?: number }) => {
    if (typeof arg !== "function") return transaction(arg, options);
    const body = arg as (tx: Tx) => Promise<unknown>;
    const idle = options?.timeout && limits && options.timeout > limits.idleInTransactionMs ? options.timeout : undefined;
    return transaction(
      (tx: Tx) =>
        insideTransaction(async () => {
          if (idle) await tx.$queryRaw`SELECT set_config('idle_in_transaction_session_timeout', ${String(idle)}, true)`;
          return body(tx);
        }),
      options,
    );
  }) as Db["$transaction"];
}

/**
 * The pg pool under a Db, for the few reads made on every request, where Prisma's per-query compile costs
 * more than the query itself (docs/decisions/001). Parameters only, never pasted strings.
 */
export function sqlPool(db: Db): pg.Pool {
  const pool = pools.get(db);
  if (!pool) throw new Error("this Db was not made by createDb");
  return pool;
}

/** A transaction on one connection of the pool, straight through pg (`sqlTransaction`). */
export type SqlTx = pg.PoolClient;

/** Where a raw statement can run: Prisma's client or transaction, or pg's pool or transaction. */
export type SqlRunner = Db | Tx | pg.Pool | SqlTx;

/**
 * Prisma keeps DateTime as UTC in "timestamp without time zone"; pg would read such a value in the process's time
 * zone. Read straight through pg, it is UTC too, so rows match what Prisma returns.
 */
const UTC_TYPES = {
  getTypeParser(oid: number, format?: string) {
    if (oid === pg.types.builtins.TIMESTAMP) return (v: string) => new Date(`${v.replace(" ", "T")}Z`);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/**
 * The rows of a tagged statement (`Prisma.sql`, values always bound) wherever it runs. On pg it skips Prisma's
 * client runtime, a measurable share of the hot paths' CPU under load (docs/decisions/226); int8 and numeric come
 * back as strings there, so hot statements cast what they return.
 */
export async function queryRows<T>(c: SqlRunner, q: Prisma.Sql): Promise<T[]> {
  if ("$queryRaw" in c) return c.$queryRaw<T[]>(q);
  return (await c.query({ text: q.text, values: q.values, types: UTC_TYPES })).rows as T[];
}

/**
 * Runs `fn` in a transaction on one pooled connection, through pg alone: for the hot transactions whose every
 * statement is raw SQL (charging a generation or a chat reply), where Prisma's interactive transaction and client
 * runtime cost more than the statements (docs/decisions/226). Rolled back when `fn` throws.
 */
export async function sqlTransaction<T>(db: Db, fn: (tx: SqlTx) => Promise<T>): Promise<T> {
  const client = await sqlPool(db).connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const result = await insideTransaction(() => fn(client));
    await client.query("COMMIT");
    return result;
  } catch (err) {
    // a connection that cannot even roll back is not given back to the pool
    await client.query("ROLLBACK").catch((e: Error) => (broken = e));
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * PostgreSQL's SQLSTATE of a failed statement, however it reached us: from pg (`queryRows`), as the cause of another
 * error, or wrapped in Prisma's error for a raw statement.
 */
export function sqlState(err: unknown): string | undefined {
  const e = err as
    | { code?: string; cause?: { code?: string }; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } } }
    | undefined;
  const own = e?.code && !PRISMA_ERROR_CODE.test(e.code) ? e.code : undefined;
  return own ?? e?.cause?.code ?? e?.meta?.code ?? e?.meta?.driverAdapterError?.cause?.originalCode;
}

/** Prisma's own error codes (P1000–P6999), which wrap a statement's SQLSTATE rather than being one. */
const PRISMA_ERROR_CODE = /^P[1-9]\d{3}$/;

/** A unique constraint refused the write: Prisma's P2002, or PostgreSQL's 23505 in any form `sqlState` reads. */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | undefined)?.code === "P2002" || sqlState(err) === "23505";
}

/**
 * Which of the session limits (docs/decisions/244) stopped a statement: `lock` when it waited too long for a lock
 * (55P03), `overloaded` when it ran too long (57014), its transaction sat idle too long (25P03) or no connection came
 * free in time (pg's pool wait, Prisma's P2024 and P2028 around it); undefined for anything else.
 */
export function limitHit(err: unknown): "lock" | "overloaded" | undefined {
  const state = sqlState(err);
  if (state === "55P03") return "lock";
  if (state === "57014" || state === "25P03") return "overloaded";
  const e = err as { code?: string; message?: string; cause?: { message?: string } } | undefined;
  if (e?.code === "P2024" || e?.code === "P2028") return "overloaded";
  if (POOL_WAIT.test(e?.message ?? "") || POOL_WAIT.test(e?.cause?.message ?? "")) return "overloaded";
  return undefined;
}

/**
 * pg-pool's message when no connection came free within `connectionTimeoutMillis`, and pg's for a transaction whose
 * connection the server closed (its idle limit ran out while the request was stuck elsewhere).
 */
const POOL_WAIT = /timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable/;

/**
 * `refuse_statement(reason)` in a statement's result (migration 0186): the statement undid itself, everything it wrote
 * rolled back, because what it checked did not hold (a short balance).
 */
export const refuseStatement = (reason: string) => Prisma.sql`refuse_statement(${reason})`;
export const isRefusedStatement = (err: unknown): boolean => sqlState(err) === "RV001";

/** True when PostgreSQL answers a trivial query. */
export async function isDbReachable(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
