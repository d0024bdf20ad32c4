import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { PROJECT_DIR } from "../../server/src/paths.ts";

/** One Reverie process of the layout: an API instance (`npm start`'s bundle) or a worker (`npm run worker`'s). */
export interface Proc {
  name: string;
  child: ChildProcess;
  /** Its JSON log lines so far. */
  lines(): Record<string, unknown>[];
  /** What else it wrote (a crash's stack, a warning of Node's), line by line. */
  otherLines(): string[];
  /** Whether it has exited (or was killed). */
  gone(): boolean;
  exited: Promise<number | string>;
}

function spawnProc(name: string, script: string, env: Record<string, string>): Proc {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--enable-source-maps", script], {
    cwd: PROJECT_DIR,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown")));
  // the last piece may be a line still being written
  const whole = () => out.split("\n").slice(0, -1);
  const lines = () =>
    whole()
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const otherLines = () => whole().filter((l) => l.trim() && !l.startsWith("{"));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return { name, child, lines, otherLines, gone, exited };
}

export interface Layout {
  apis: (Proc & { url: string })[];
  workers: Proc[];
  secret: string;
  /** The settings every process of the layout has (DATABASE_URL, storage, MEDIA_URL_SECRET…). */
  env: Record<string, string>;
  dir: string;
}

/** An API instance (`npm start`'s bundle) with RUN_WORKER=false on `port`; `env` changes the layout's settings. */
export function startApi(l: Pick<Layout, "env" | "dir">, name: string, port: number, env: Record<string, string> = {}): Proc & { url: string } {
  const p = spawnProc(name, "dist/server/main.js", { ...l.env, PORT: String(port), RUN_WORKER: "false", DATA_DIR: path.join(l.dir, name), ...env });
  return { ...p, url: `http://127.0.0.1:${port}` };
}

/** A worker (`npm run worker`'s bundle). */
export function startWorker(l: Pick<Layout, "env" | "dir">, name: string): Proc {
  return spawnProc(name, "dist/server/worker/main.js", { ...l.env, DATA_DIR: path.join(l.dir, name) });
}

/** Two API instances (RUN_WORKER=false) and two workers, started in the same moment with the same settings. */
export function startLayout(o: {
  dir: string;
  databaseUrl: string;
  storageEnv: Record<string, string>;
  apiPorts: [number, number];
  env: Record<string, string>;
}): Layout {
  const secret = crypto.randomBytes(24).toString("hex");
  const env = {
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    DATABASE_URL: o.databaseUrl,
    MEDIA_URL_SECRET: secret,
    // the proxy is on this machine: its address is the one trusted for X-Forwarded-For
    TRUST_PROXY: "127.0.0.1",
    ...o.storageEnv,
    ...o.env,
  };
  const l = { env, dir: o.dir };
  const apis = o.apiPorts.map((port, i) => startApi(l, `api${i + 1}`, port));
  const workers = [1, 2].map((i) => startWorker(l, `worker${i}`));
  return { apis, workers, secret, ...l };
}

/** Stops every process (SIGTERM, as systemd does) and waits for each. */
export async function stopLayout(l: Layout): Promise<void> {
  const all = [...l.apis, ...l.workers];
  for (const p of all) if (p.child.exitCode === null) p.child.kill("SIGTERM");
  await Promise.all(all.map((p) => p.exited));
}

/** Polls until `check` is true, failing with `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
