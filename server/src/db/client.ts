import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { Prisma, PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Prisma's default of 2 s to get a connection for a transaction turns a burst of concurrent credit movements
 * into errors while the pool is busy; waiting longer queues them instead (docs/decisions/010).
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

const pools = new WeakMap<Db, pg.Pool>();

/** A Prisma client over one pg pool; the pool is ended with `$disconnect()`. */
export function createDb(databaseUrl: string, poolSize = 10): Db {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }), transactionOptions: TRANSACTION_OPTIONS });
  pools.set(db, pool);
  return db;
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
    const result = await fn(client);
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
