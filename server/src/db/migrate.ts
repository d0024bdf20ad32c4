import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { PROJECT_DIR } from "../paths.ts";
import type { Logger } from "pino";
import type { Db } from "./client.ts";
import { classifyMigration, type MigrationVerdict } from "./migration-safety.ts";

export const MIGRATIONS_DIR = path.join(PROJECT_DIR, "prisma", "migrations");

/** Arbitrary but fixed: every Reverie instance takes this advisory lock to migrate and seed one at a time. */
const MIGRATION_LOCK_ID = 7_240_311;

/**
 * Runs `fn` while this process holds the start-up lock (a session advisory lock on a connection of its own): instances
 * started together migrate and then seed one after another, the others waiting (issue 49). The seed's steps each
 * create what is missing, which is only safe one instance at a time: two at once both created the first admin.
 */
export async function underStartupLock<T>(databaseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    return await fn(client);
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}

/** The migration files, in the order they are applied. */
export async function migrationFiles(dir = MIGRATIONS_DIR): Promise<string[]> {
  return (await fs.readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
}

// the files a build ships do not change while it runs
let shipped: Promise<string[]> | undefined;

/** Whether every migration this build ships is recorded as applied (false while the table does not exist yet). */
export async function migrationsApplied(db: Db): Promise<boolean> {
  try {
    const rows = await db.$queryRaw<{ name: string }[]>`SELECT name FROM schema_migrations`;
    const applied = new Set(rows.map((r) => r.name));
    return (await (shipped ??= migrationFiles())).every((f) => applied.has(f));
  } catch {
    return false;
  }
}

/** The shipped migrations a database lacks, each with whether it may run under the previous build's traffic (decision 384). */
export async function migrationPlan(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<({ file: string } & MigrationVerdict)[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let applied: Set<string>;
  try {
    const table = await client.query("SELECT to_regclass('schema_migrations') AS t");
    applied = new Set(table.rows[0].t ? (await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map((r) => r.name) : []);
  } finally {
    await client.end();
  }
  const pending = (await migrationFiles(dir)).filter((f) => !applied.has(f));
  return Promise.all(pending.map(async (file) => ({ file, ...classifyMigration(await fs.readFile(path.join(dir, file), "utf8")) })));
}

/** Returns once every shipped migration is applied, checking each second; says once that it waits. */
export async function waitForMigrations(db: Db, log: Logger): Promise<void> {
  for (let said = false; !(await migrationsApplied(db)); said = true) {
    if (!said) {
      log.info("waiting for the API to apply the migrations");
      // production batches log lines: this one says why the process does nothing yet, so it goes out now
      log.flush();
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Applies the SQL files of prisma/migrations in name order, each in its own transaction,
 * recording applied files (with a checksum) so that a second run does nothing.
 * `prisma migrate deploy` cannot be used through the JS engine (see docs/decisions/002).
 */
export function runMigrations(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<string[]> {
  return underStartupLock(databaseUrl, async (client) => {
    const applied: string[] = [];
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Map<string, string>(
      (await client.query<{ name: string; checksum: string }>("SELECT name, checksum FROM schema_migrations")).rows.map((r) => [r.name, r.checksum]),
    );
    for (const file of await migrationFiles(dir)) {
      const sql = await fs.readFile(path.join(dir, file), "utf8");
      const checksum = crypto.createHash("sha256").update(sql).digest("hex");
      const previous = done.get(file);
      if (previous) {
        if (previous !== checksum) throw new Error(`Migration ${file} changed after it was applied; add a new migration instead`);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query("INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)", [file, checksum]);
        await client.query("COMMIT");
        applied.push(file);
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${file} failed: ${(err as Error).message}`);
      }
    }
    return applied;
  });
}
