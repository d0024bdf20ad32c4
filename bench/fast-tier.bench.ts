import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import type { WorkflowTier } from "../server/src/contract/engines.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { createServices } from "../server/src/services.ts";
import { freePort } from "../tests/net-utils.ts";
import { fakeServers } from "./comfyui-pool.bench.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const QUOTES = 300;
const SUBMITS = 150;

/**
 * Issue 45: Reverie's own time to quote and to submit a fast (few-step) request beside a best one, on the comfyui
 * engine with a healthy fake server, interleaved so both see the same machine: the fast tier adds no per-request
 * overhead (its price and its refusal are the same look-ups for another tier). GPU seconds per clip come only from a
 * GPU; none is measured here.
 */
export default async function fastTierBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-tier-"));
  const servers = await fakeServers(1, 100);
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  await runMigrations(pg.url);
  const config = parseConfig({ DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "silent", FREE_GENERATIONS: "0", COMFYUI_URLS: servers.urls.join(",") });
  const db = createDb(pg.url, 10);
  const services = createServices({ db, config, log: pino({ level: "silent" }), databaseUrl: pg.url });
  try {
    const g = services.generation;
    const body = (tier: WorkflowTier) => ({ type: "video" as const, mode: "text_to_video" as const, resolution: "480P" as const, duration: 5, count: 1, tier });
    // warm: the engine's first health round and the first quote's look-ups
    for (let i = 0; !(await g.quote(body("fast"))).available && i < 100; i++) await new Promise((r) => setTimeout(r, 100));
    const quoteMs: Record<WorkflowTier, number[]> = { full: [], fast: [] };
    for (let i = 0; i < QUOTES; i++) {
      for (const tier of ["full", "fast"] as const) {
        const t = performance.now();
        await g.quote(body(tier));
        quoteMs[tier].push(performance.now() - t);
      }
    }
    const user = await db.user.create({ data: {} });
    await services.credits.grant({ userId: user.id, amount: 10_000, reason: "bench", idempotencyKey: "bench-tier-grant" });
    const submitMs: Record<WorkflowTier, number[]> = { full: [], fast: [] };
    for (let i = 0; i < SUBMITS; i++) {
      for (const tier of ["full", "fast"] as const) {
        const t = performance.now();
        await g.roleOrTextVideo(user.id, { prompt: `bench ${tier} ${i}`, resolution: "480P", duration: 5, tier, idempotency_key: `bench-${tier}-${i}` }, false);
        submitMs[tier].push(performance.now() - t);
      }
    }
    const row = (what: string, xs: Record<WorkflowTier, number[]>, n: number): BenchResult[] => {
      const [full, fast] = [percentile(xs.full, 50), percentile(xs.fast, 50)];
      return [
        { name: `${what} best p50 (${n})`, value: full, unit: "ms", detail: { p99: percentile(xs.full, 99) } },
        { name: `${what} fast p50 (${n})`, value: fast, unit: "ms", detail: { p99: percentile(xs.fast, 99) } },
        // within 10 % or half a millisecond of best: the same look-ups for another tier
        { name: `${what} fast / best p50`, value: fast / full, unit: "x", target: "≤ 1.1x", pass: fast <= full * 1.1 || fast - full <= 0.5 },
      ];
    };
    return [...row("quote", quoteMs, QUOTES), ...row("submit (charge + enqueue)", submitMs, SUBMITS)];
  } finally {
    await services.close();
    await db.$disconnect();
    await pg.stop();
    await servers.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
