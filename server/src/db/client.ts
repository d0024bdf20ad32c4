import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "./generated/client.ts";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Prisma's default of 2 s to get a connection for a transaction turns a burst of concurrent credit movements
 * into errors while the pool is busy; waiting longer queues them instead (docs/decisions/010).
 */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 15_000 };

export function createDb(databaseUrl: string, poolSize = 10): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
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
