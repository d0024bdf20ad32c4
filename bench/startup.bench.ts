import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BenchResult } from "./run.ts";
import { spawn } from "node:child_process";
import { buildTarget, TARGETS } from "../scripts/build.ts";
import { PROJECT_DIR } from "../server/src/paths.ts";
import { freePort } from "../tests/net-utils.ts";
import { interrupt, spawnReverie, waitForHealth } from "../tests/process-utils.ts";

const RUNS = 3;

/** One start of the real entry point: spawn to the first 200 from /api/health, then Ctrl-C. */
async function timeStart(dataDir: string, pgPort: number): Promise<number> {
  const startedAt = Date.now();
  const p = spawnReverie({ DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) });
  try {
    return await waitForHealth(p, 60_000, startedAt);
  } finally {
    await interrupt(p);
  }
}

/**
 * `npm start` itself on an unchanged checkout (issue 11): the build step finds every target up to date, then the server
 * starts on warm data. Spawned in its own process group so that Ctrl-C reaches npm, the build step and the server.
 */
async function timeNpmStart(dataDir: string, pgPort: number): Promise<number> {
  const port = await freePort();
  const startedAt = Date.now();
  const { DATABASE_URL: _external, ...inherited } = process.env;
  const child = spawn("npm", ["start", "--silent"], {
    cwd: PROJECT_DIR,
    detached: true,
    env: {
      ...inherited,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      RUN_WORKER: "false",
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
    },
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    for (;;) {
      if (Date.now() - startedAt > 60_000) throw new Error("npm start was not healthy within 60 s");
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return Date.now() - startedAt;
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, "SIGINT");
      await exited;
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Cold start: an empty DATA_DIR (initdb, create database, all migrations, seed with the admin's scrypt hash).
 * Warm start: the same DATA_DIR again (PostgreSQL start, nothing to migrate, seed finds everything).
 */
export default async function startupBench(): Promise<BenchResult[]> {
  for (const target of TARGETS) await buildTarget(target);
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-startup-"));
  const cold: number[] = [];
  const warm: number[] = [];
  const npmStart: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dataDir = path.join(root, `run-${i}`);
      const pgPort = await freePort();
      cold.push(await timeStart(dataDir, pgPort));
      warm.push(await timeStart(dataDir, pgPort));
      npmStart.push(await timeNpmStart(dataDir, pgPort));
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
  const detail = { runs: RUNS, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))), cpus: os.cpus().length };
  return [
    {
      name: "cold start to first healthy answer (median)",
      value: median(cold),
      unit: "ms",
      target: "<= 5000 ms",
      pass: median(cold) <= 5000,
      detail: { ...detail, all: cold },
    },
    {
      name: "warm start to first healthy answer (median)",
      value: median(warm),
      unit: "ms",
      target: "<= 2000 ms",
      pass: median(warm) <= 2000,
      detail: { ...detail, all: warm },
    },
    {
      name: "npm start of an unchanged checkout to first healthy answer (median)",
      value: median(npmStart),
      unit: "ms",
      target: "<= 5000 ms",
      pass: median(npmStart) <= 5000,
      detail: { ...detail, all: npmStart },
    },
  ];
}
