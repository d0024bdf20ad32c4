import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "./generated/client.ts";

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

/** True when PostgreSQL answers a trivial query. */
export async function isDbReachable(db: Db): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}
