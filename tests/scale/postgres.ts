import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

/** A PostgreSQL server of its own (Debian's `postgresql` package), reached only through its URL like a managed one. */
export interface PostgresServer {
  url: string;
  /** The `postgres` maintenance database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** The server's binaries (pg_dump, pg_restore of the same version). */
  bin: string;
  /** the postmaster (each connection's backend is its child) */
  pid: number;
  stop(): Promise<void>;
}

/** The newest installed server's binaries: Debian keeps them out of PATH, under /usr/lib/postgresql/<major>/bin. */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb"))) : [];
  if (!majors.length) throw new Error("PostgreSQL's server is not installed: apt-get install -y postgresql (Debian's)");
  return path.join(root, majors.sort((a, b) => Number(b) - Number(a))[0], "bin");
}

/**
 * PostgreSQL refuses to run as root: as root its commands run as the package's `postgres` user, spawned with that
 * user's ids (not through runuser, which does not pass a SIGINT on: the server must be the child this process signals).
 */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const [uid, gid] = ["-u", "-g"].map((flag) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim()));
  return { uid, gid };
}

export async function startPostgres(dir: string, port: number, password: string): Promise<PostgresServer> {
  const bin = binDir();
  const data = path.join(dir, "data");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "pw"), password);
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  const user = serverUser();
  execFileSync(path.join(bin, "initdb"), ["-D", data, "-U", "reverie", "-A", "scram-sha-256", `--pwfile=${path.join(dir, "pw")}`, "-E", "UTF8"], {
    stdio: "pipe",
    ...user,
    cwd: dir,
  });
  const args = [
    ...["-D", data, "-p", String(port), "-k", dir],
    ...["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=100", "-c", "log_min_messages=warning"],
    // a throw-away cluster: durability is not what is tested
    ...["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
  ];
  const child: ChildProcess = spawn(path.join(bin, "postgres"), args, { stdio: ["ignore", "ignore", "pipe"], ...user, cwd: dir });
  let log = "";
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const base = `postgresql://reverie:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const adminUrl = `${base}/postgres`;
  for (let tries = 0; ; tries++) {
    const c = new pg.Client({ connectionString: adminUrl });
    try {
      await c.connect();
      await c.query("CREATE DATABASE reverie");
      await c.end();
      break;
    } catch (err) {
      await c.end().catch(() => undefined);
      if (tries > 100 || child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${(err as Error).message}\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url: `${base}/reverie`,
    adminUrl,
    bin,
    pid: child.pid!,
    async stop() {
      // SIGINT: the fast shutdown (open sessions are ended, no wait for clients)
      child.kill("SIGINT");
      await exited;
    },
  };
}
