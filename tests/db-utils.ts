import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { pino } from "pino";
import { inject } from "vitest";
import supertest from "supertest";
import { createApp } from "../server/src/app.ts";
import { parseConfig, type Config } from "../server/src/config.ts";
import { createDb, type Db } from "../server/src/db/client.ts";
import { dbOptions } from "../server/src/db/database.ts";

export interface TestDb {
  db: Db;
  url: string;
  drop(): Promise<void>;
}

const TEMPLATE_COPY_LOCK = 7_201_001;

/** A fresh, migrated database cloned from the run's template. */
export async function createTestDb(): Promise<TestDb> {
  const adminUrl = inject("pgAdminUrl");
  const name = `t_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // PostgreSQL refuses to copy a template that another CREATE DATABASE is copying at that moment ("being accessed by
  // other users"): test files running side by side (decision 201) take turns through a lock on the admin database
  await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_COPY_LOCK]);
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject("pgTemplate")}`);
  } finally {
    await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_COPY_LOCK]);
    await admin.end();
  }
  const url = adminUrl.replace(/\/postgres$/, `/${name}`);
  // the API's limits and guard, as configured by default (docs/decisions/244)
  const db = createDb(url, 20, dbOptions(testConfig(), silentLog));
  return {
    db,
    url,
    async drop() {
      await db.$disconnect();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return parseConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: path.join(os.tmpdir(), `reverie-data-${crypto.randomBytes(4).toString("hex")}`),
    PUBLIC_URL: "http://localhost:8080",
    ...overrides,
  });
}

export const silentLog = pino({ level: "silent" });

/** An app on its own database, with supertest bound to it. */
export async function createTestApp(overrides: Record<string, string> = {}, existing?: TestDb) {
  const testDb = existing ?? (await createTestDb());
  const config = testConfig(overrides);
  const { app, services, api } = createApp({ db: testDb.db, config, log: silentLog, databaseUrl: testDb.url });
  const close = async () => {
    await services.close();
    if (!existing) await testDb.drop();
  };
  return { app, services, api, config, db: testDb.db, testDb, http: supertest(app), close };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * Runs `statement` (a lock: SELECT ... FOR UPDATE, LOCK TABLE) in a transaction of its own connection; resolves once
 * the lock is taken, and keeps it until `release()` commits.
 */
export async function takeLock(url: string, statement: string, values: unknown[]): Promise<{ release(): Promise<void> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query("BEGIN");
  await c.query(statement, values);
  return {
    async release() {
      await c.query("COMMIT");
      await c.end();
    },
  };
}

/** `takeLock` held for `ms`; resolves once the lock is taken, with a promise of its release. */
export async function holdLock(url: string, statement: string, values: unknown[], ms: number): Promise<{ released: Promise<void> }> {
  const lock = await takeLock(url, statement, values);
  // wrapped in an object: a promise returned from an async function would be awaited along with it, and the caller
  // would go on only once the lock is gone
  return { released: new Promise<void>((r) => setTimeout(r, ms)).then(() => lock.release()) };
}

/**
 * Resolves once at least `count` sessions of this database wait for a lock (a row, a table or an advisory lock, as
 * pg_stat_activity shows them): a race test's requests are then known to be queued, with no sleep that guesses it.
 */
export async function lockWaiters(url: string, count: number, timeoutMs = 20_000): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
      if (rows[0].n >= count) return;
      if (Date.now() > end) throw new Error(`${rows[0].n} of ${count} sessions wait for a lock after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    await c.end();
  }
}

/** A new guest and its token. */
export async function visitor(t: TestApp, headers: Record<string, string> = {}): Promise<{ token: string; userId: number }> {
  const res = await t.http.post("/api/login/visitor").set(headers).expect(200);
  return { token: res.body.data.token, userId: res.body.data.user_info.id };
}

/** A console staff member with these roles, logged in through POST /admin/api/login (password + one-time code). */
/** GETs a signed media URL (local ones are relative) from the in-process app, body as raw bytes. */
export async function fetchMedia(t: Pick<TestApp, "http">, url: string): Promise<{ status: number; body: Buffer }> {
  const u = new URL(url, "http://any-host");
  const res = await t.http
    .get(u.pathname + u.search)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    });
  return { status: res.status, body: res.body as Buffer };
}
