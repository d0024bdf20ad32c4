import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { createDb, type Db } from "./client.ts";
import { startEmbeddedPostgres } from "./embedded.ts";
import { runMigrations } from "./migrate.ts";

export interface Database {
  db: Db;
  url: string;
  close(): Promise<void>;
}

/** Connects to DATABASE_URL, or starts the embedded PostgreSQL under $DATA_DIR/pg when it is unset; then migrates. */
export async function openDatabase(config: Config, log: Logger): Promise<Database> {
  let url = config.DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!url) {
    const embedded = await startEmbeddedPostgres(path.join(config.dataDir, "pg"), config.EMBEDDED_PG_PORT, (m) => log.debug({ pg: m.trim() }, "postgres"));
    url = embedded.url;
    stopEmbedded = embedded.stop;
    log.info({ dir: path.join(config.dataDir, "pg"), port: config.EMBEDDED_PG_PORT }, "embedded PostgreSQL started");
  }
  const applied = await runMigrations(url);
  if (applied.length) log.info({ applied }, "migrations applied");
  const db = createDb(url, config.DB_POOL_SIZE);
  return {
    db,
    url,
    async close() {
      await db.$disconnect();
      await stopEmbedded?.();
    },
  };
}
