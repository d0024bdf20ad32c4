import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BenchResult } from "./run.ts";
import { buildServer } from "../server/build.ts";
import { freePort } from "../tests/net-utils.ts";
import { interrupt, spawnReverie, waitForHealth } from "../tests/process-utils.ts";

const RUNS = 3;

/** One start of the real entry point: spawn to the first 200 from /api/health, then Ctrl-C. */
async function timeStart(dataDir: string, pgPort: number): Promise<number> {
  const startedAt = Date.now();
  const p = spawnReverie({ DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(pgPort) });
  try {
    return await waitForHealth(p, 60_000, startedAt);
  } finally {
    await interrupt(p);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Cold start: an empty DATA_DIR (initdb, create database, all migrations, seed with the admin's scrypt hash).
 * Warm start: the same DATA_DIR again (PostgreSQL start, nothing to migrate, seed finds everything).
 */
export default async function startupBench(): Promise<BenchResult[]> {
  await buildServer();
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-startup-"));
  const cold: number[] = [];
  const warm: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dataDir = path.join(root, `run-${i}`);
      const pgPort = await freePort();
      cold.push(await timeStart(dataDir, pgPort));
      warm.push(await timeStart(dataDir, pgPort));
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
  const detail = { runs: RUNS, loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))), cpus: os.cpus().length };
  return [
    { name: "cold start to first healthy answer (median)", value: median(cold), unit: "ms", target: "<= 5000 ms", pass: median(cold) <= 5000, detail: { ...detail, all: cold } },
    { name: "warm start to first healthy answer (median)", value: median(warm), unit: "ms", target: "<= 2000 ms", pass: median(warm) <= 2000, detail: { ...detail, all: warm } },
  ];
}
