import fs from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import type { WorkflowTier } from "../server/src/contract/engines.ts";
import { createApp } from "../server/src/app.ts";
import { parseConfig } from "../server/src/config.ts";
import { createDb } from "../server/src/db/client.ts";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { freePort } from "../tests/net-utils.ts";
import { fakeServers } from "./comfyui-pool.bench.ts";
import type { BenchResult } from "./run.ts";

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const QUOTES = 300;
const SUBMITS = 150;

/** One request to the app as a person's browser sends it, and its answer's `data`; anything but 200 stops the bench. */
async function post(url: string, token: string, body: object): Promise<unknown> {
  const res = await fetch(url, { method: "POST", headers: { token, "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: unknown };
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * Issue 45: what a person waits for to quote and to submit a fast (few-step) request beside a best one, through the
 * API (HTTP, sign-in, validation, price, ledger, queue), on the comfyui engine with a healthy fake server, interleaved
 * so both see the same machine: the fast tier adds no per-request overhead (its price and its refusal are the same
 * look-ups for another tier). GPU seconds per clip come only from a GPU; none is measured here.
 */
export default async function fastTierBench(): Promise<BenchResult[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-bench-tier-"));
  const servers = await fakeServers(1, 100);
  const pg = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  await runMigrations(pg.url);
  const config = parseConfig({ DATA_DIR: path.join(dir, "data"), LOG_LEVEL: "silent", FREE_GENERATIONS: "0", COMFYUI_URLS: servers.urls.join(",") });
  const db = createDb(pg.url, 10);
  const { app, services } = createApp({ db, config, log: pino({ level: "silent" }), databaseUrl: pg.url });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const login = (await (await fetch(`${url}/api/login/visitor`, { method: "POST" })).json()) as { data: { token: string; user_info: { id: number } } };
    const token = login.data.token;
    await services.credits.grant({ userId: login.data.user_info.id, amount: 10_000, reason: "bench", idempotencyKey: "bench-tier-grant" });
    const body = (tier: WorkflowTier) => ({ type: "video", mode: "text_to_video", resolution: "480P", duration: 5, count: 1, tier });
    const quote = (tier: WorkflowTier) => post(`${url}/api/Generation/getDurationPoints`, token, body(tier)) as Promise<{ available: boolean }>;
    // warm: the engine's first health round and the first quote's look-ups
    for (let i = 0; !(await quote("fast")).available && i < 100; i++) await new Promise((r) => setTimeout(r, 100));
    const quoteMs: Record<WorkflowTier, number[]> = { full: [], fast: [] };
    for (let i = 0; i < QUOTES; i++) {
      for (const tier of ["full", "fast"] as const) {
        const t = performance.now();
        await quote(tier);
        quoteMs[tier].push(performance.now() - t);
      }
    }
    const submitMs: Record<WorkflowTier, number[]> = { full: [], fast: [] };
    for (let i = 0; i < SUBMITS; i++) {
      for (const tier of ["full", "fast"] as const) {
        const t = performance.now();
        await post(`${url}/api/Generation/textVideoSubmit`, token, {
          prompt: `bench ${tier} ${i}`,
          resolution: "480P",
          duration: 5,
          tier,
          idempotency_key: `bench-${tier}-${i}`,
        });
        submitMs[tier].push(performance.now() - t);
      }
    }
    const row = (what: string, xs: Record<WorkflowTier, number[]>, n: number): BenchResult[] => {
      const [full, fast] = [percentile(xs.full, 50), percentile(xs.fast, 50)];
      return [
        { name: `${what} best p50 (${n}, through HTTP)`, value: full, unit: "ms", detail: { p99: percentile(xs.full, 99) } },
        { name: `${what} fast p50 (${n}, through HTTP)`, value: fast, unit: "ms", detail: { p99: percentile(xs.fast, 99) } },
        // within 10 % or half a millisecond of best: the same look-ups for another tier
        { name: `${what} fast / best p50`, value: fast / full, unit: "x", target: "≤ 1.1x", pass: fast <= full * 1.1 || fast - full <= 0.5 },
      ];
    };
    return [...row("quote", quoteMs, QUOTES), ...row("submit (charge + enqueue)", submitMs, SUBMITS)];
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.close();
    await db.$disconnect();
    await pg.stop();
    await servers.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
