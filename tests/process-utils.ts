import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import { PROJECT_DIR } from "../server/src/paths.ts";

export interface ReverieProcess {
  child: ChildProcess;
  /** Its address once it has said where it listens (waitForHealth waits for that); empty before. */
  url: string;
  /** Resolves with its address when it logs "Reverie is ready at …" with the port it bound. */
  listening: Promise<string>;
  /** stdout + stderr so far, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  exited: Promise<number | string>;
  /** Leads a process group of its own (the embedded PostgreSQL it starts included), as a command run in a terminal does. */
  ownGroup: boolean;
}

/**
 * Runs `node dist/server/main.js` — the process `npm start` runs; the test setup builds it — with exactly these settings
 * (nothing inherited that could point it at another database). It listens on PORT 0 unless told a port: the system
 * picks one at bind time and the process names it in its ready line, so no other file's server can take it between
 * a choice and the bind, and no other server's answer can pass for this one's.
 */
export function spawnReverie(env: Record<string, string>, o: { ownGroup?: boolean } = {}): ReverieProcess {
  if ((env.PORT ?? "0") === "0" && env.LOG_LEVEL && !["trace", "debug", "info"].includes(env.LOG_LEVEL))
    throw new Error("a process on PORT 0 names its port in an info line: give it LOG_LEVEL info or lower, or a PORT");
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--enable-source-maps", "dist/server/main.js"], {
    cwd: PROJECT_DIR,
    // info: the ready line, which names the port, is logged at that level
    env: { ...inherited, NODE_ENV: "production", LOG_LEVEL: "info", HOST: "127.0.0.1", RUN_WORKER: "false", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: o.ownGroup ?? false,
  });
  let out = "";
  let announced: (url: string) => void;
  const listening = new Promise<string>((resolve) => (announced = resolve));
  child.stdout!.on("data", (d) => {
    out += d;
    const port = /"msg":"Reverie is ready at http:\/\/localhost:(\d+)"/.exec(out)?.[1];
    if (port) announced(`http://127.0.0.1:${port}`);
  });
  child.stderr!.on("data", (d) => (out += d));
  // 'close', not 'exit': the process can end before its last lines (those of its shutdown) are read from the pipes
  const exited = new Promise<number | string>((resolve) => child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown")));
  const p: ReverieProcess = { child, url: "", listening, output: () => out, exited, ownGroup: o.ownGroup ?? false };
  if ((env.PORT ?? "0") !== "0") announced!(`http://127.0.0.1:${env.PORT}`);
  void listening.then((url) => (p.url = url));
  return p;
}

/**
 * Waits for the process to name the port it bound, then polls its /api/health until it answers 200; returns how long
 * that took. The port is the one this process bound, so the answer is its own.
 */
export async function waitForHealth(p: ReverieProcess, timeoutMs = 30_000, startedAt = Date.now()): Promise<number> {
  let exitedWith: number | string | undefined;
  void p.exited.then((c) => (exitedWith = c));
  while (Date.now() - startedAt < timeoutMs) {
    if (exitedWith !== undefined) throw new Error(`Reverie exited (${exitedWith}) before it was healthy:\n${p.output()}`);
    if (!p.url) {
      await new Promise((r) => setTimeout(r, 25));
      continue;
    }
    try {
      const res = await fetch(`${p.url}/api/health`);
      if (res.status === 200) return Date.now() - startedAt;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`Reverie was not healthy within ${timeoutMs} ms:\n${p.output()}`);
}

/** Ctrl-C, as a person would (a terminal's reaches the whole process group, where the process leads one), and waits for the exit. */
export async function interrupt(p: ReverieProcess, timeoutMs = 20_000): Promise<number | string> {
  const signal = (name: NodeJS.Signals) => (p.ownGroup ? process.kill(-p.child.pid!, name) : p.child.kill(name));
  signal("SIGINT");
  const timer = setTimeout(() => signal("SIGKILL"), timeoutMs);
  try {
    return await p.exited;
  } finally {
    clearTimeout(timer);
  }
}

export async function fileExists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}
