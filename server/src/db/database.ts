import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { createDb, type Db, type DbOptions } from "./client.ts";
import { startDatabaseServer, type DatabaseServer } from "./embedded.ts";
import { runMigrations } from "./migrate.ts";

export interface Database {
  db: Db;
  url: string;
  /** Disconnects, and stops the embedded PostgreSQL when it was started for this process. */
  close(): Promise<void>;
}

/**
 * The limits every connection of a process's pool carries, and what a connection asked for inside a transaction does:
 * thrown in development and tests, logged in production (docs/decisions/244). A worker process passes its longer
 * statement limit. The migration runner and pg-boss open their own connections, without these limits.
 */
export function dbOptions(config: Config, log: Logger, statementTimeoutMs = config.DB_STATEMENT_TIMEOUT_MS): DbOptions {
  return {
    limits: {
      lockTimeoutMs: config.DB_LOCK_TIMEOUT_MS,
      statementTimeoutMs,
      idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_MS,
      poolWaitMs: config.DB_POOL_WAIT_MS,
    },
    onPoolInsideTransaction: config.NODE_ENV === "production" ? (err) => log.error({ err }, "connection asked for inside a transaction") : undefined,
  };
}

/** Migrates the server's database and connects Prisma to it. On failure the server is stopped again. */
export async function connectDatabase(server: DatabaseServer, config: Config, log: Logger): Promise<Database> {
  const db = createDb(server.poolUrl ?? server.url, config.DB_POOL_SIZE, dbOptions(config, log));
  const close = async () => {
    await db.$disconnect();
    await server.stop?.();
  };
  try {
    // Prisma compiles its query engine on first connect; let that happen while the migrations run.
    const [applied] = await Promise.all([runMigrations(server.url), db.$connect()]);
    if (applied.length) log.info({ applied }, "migrations applied");
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return { db, url: server.url, close };
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL under $DATA_DIR/pg when it is unset; then migrates. */
export async function openDatabase(config: Config, log: Logger): Promise<Database> {
  return connectDatabase(await startDatabaseServer(config, log), config, log);
}
