import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import autocannon from "autocannon";
import pg from "pg";
import type { BenchResult } from "./run.ts";
import { createDb } from "../server/src/db/client.ts";
import { seedProducts } from "../server/src/domains/products/products.seed.ts";
import { PROJECT_DIR } from "../server/src/paths.ts";
import { startS3rver } from "../tests/fixtures/s3rver.ts";
import { freePort } from "../tests/net-utils.ts";
import { startLayout, stopLayout, until } from "../tests/scale/cluster.ts";
import { Browser, deliver, paymentNotification } from "../tests/scale/guest.ts";
import { startNginx } from "../tests/scale/nginx.ts";
import { startPostgres } from "../tests/scale/postgres.ts";

const ROUND_S = 5;
const ROUNDS = 3;
const CONNECTIONS = 32;
const SUBMITS = 30;
const SUBMIT_EVERY_MS = 1500;
const SECRET = "scale-bench-webhook-secret-012345";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;

/** CPU seconds a process and its children (threads included) have used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const tick = 100; // USER_HZ on Linux
  const own = (p: number) => {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      return 0;
    }
  };
  const kids = (p: number): number[] => {
    try {
      return fs
        .readdirSync(`/proc/${p}/task`)
        .flatMap((t) => fs.readFileSync(`/proc/${p}/task/${t}/children`, "utf8").trim().split(" ").filter(Boolean).map(Number));
    } catch {
      return [];
    }
  };
  const walk = (p: number): number => own(p) + kids(p).reduce((n, k) => n + walk(k), 0);
  return walk(pid);
}

async function load(url: string, headers: Record<string, string>, duration = ROUND_S) {
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration, workers: 1 });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { rps: r.requests.average, p99: r.latency.p99, p50: r.latency.p50 };
}

/**
 * Issue 49's measures on `npm run test:scale`'s layout (external PostgreSQL, s3rver, two API instances, two workers,
 * nginx with the README's file): GET /api/Personal/personal_info through nginx to two instances, next to nginx to one
 * instance and to one instance on its own address, in alternating rounds, with the CPU each process used; then the
 * time from a submit to a worker starting it (started_at − created_at) with two workers, submits paced so the queue
 * stays short.
 */
export default async function scaleBench(): Promise<BenchResult[]> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), "reverie-bench-scale-"));
  await fsp.chmod(dir, 0o755);
  const stops: (() => Promise<unknown>)[] = [];
  try {
    execFileSync(path.join(PROJECT_DIR, "node_modules/.bin/tsx"), ["scripts/build.ts", "server"], { cwd: PROJECT_DIR, stdio: "inherit" });
    const db = await startPostgres(path.join(dir, "pg"), await freePort(), "bench-password");
    stops.push(db.stop);
    const store = await startS3rver();
    stops.push(store.close);
    const ports: [number, number] = [await freePort(), await freePort()];
    const proxyPort = await freePort();
    const layout = startLayout({
      dir,
      databaseUrl: db.url,
      storageEnv: store.env,
      apiPorts: ports,
      env: {
        PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
        SANDBOX_PAY_ENABLED: "true",
        SANDBOX_WEBHOOK_SECRET: SECRET,
        FREE_GENERATIONS: "0",
        QUEUE_POLL_SECONDS: "2",
        WORKER_CONCURRENCY: "1",
        // request logs on, written where nobody reads them (as personal-info.bench.ts)
        LOG_LEVEL: "info",
      },
    });
    stops.push(() => stopLayout(layout));
    const both = await startNginx(path.join(dir, "nginx2"), proxyPort, ports);
    stops.push(both.stop);
    const one = await startNginx(path.join(dir, "nginx1"), await freePort(), [ports[0], ports[0]]);
    stops.push(one.stop);
    await until(
      "the layout ready",
      async () =>
        (
          await Promise.all(
            layout.apis.map((a) =>
              fetch(`${a.url}/api/ready`).then(
                (r) => r.status,
                () => 0,
              ),
            ),
          )
        ).every((s) => s === 200),
      180_000,
    );
    await until("both workers started", () => layout.workers.every((w) => w.lines().some((l) => l.msg === "generation worker started")), 180_000);

    const b = await new Browser(both.url).guest();
    const headers = { token: b.token, "x-forwarded-for": b.ip, "accept-encoding": "gzip, deflate, br" };
    const targets = {
      twoInstances: `${both.url}/api/Personal/personal_info`,
      oneInstanceViaNginx: `${one.url}/api/Personal/personal_info`,
      oneInstanceDirect: `${layout.apis[0]!.url}/api/Personal/personal_info`,
    };
    for (const url of Object.values(targets)) await load(url, headers, 2);
    const rounds: Record<keyof typeof targets, Awaited<ReturnType<typeof load>>[]> = { twoInstances: [], oneInstanceViaNginx: [], oneInstanceDirect: [] };
    const procs = { nginx: both.pid, api1: layout.apis[0]!.child.pid!, api2: layout.apis[1]!.child.pid!, postgres: db.pid, loadGenerator: process.pid };
    const cpu: Record<string, number> = {};
    for (let i = 0; i < ROUNDS; i++) {
      for (const k of Object.keys(targets) as (keyof typeof targets)[]) {
        const before = Object.fromEntries(Object.entries(procs).map(([n, pid]) => [n, cpuSeconds(pid)]));
        rounds[k].push(await load(targets[k], headers));
        if (k === "twoInstances") for (const [n, pid] of Object.entries(procs)) cpu[n] = (cpu[n] ?? 0) + (cpuSeconds(pid) - before[n]!) / (ROUND_S * ROUNDS);
      }
    }
    const summary = (k: keyof typeof targets) => ({ rps: median(rounds[k].map((r) => r.rps)), p99: median(rounds[k].map((r) => r.p99)) });
    const two = summary("twoInstances");
    const oneProxied = summary("oneInstanceViaNginx");
    const direct = summary("oneInstanceDirect");

    // submit → worker start, two workers
    const prisma = createDb(db.url, 2);
    stops.push(() => prisma.$disconnect());
    await seedProducts(prisma);
    const pack = (await prisma.product.findFirstOrThrow({ where: { code: "credits_500" } })).id;
    const order = await b.order(pack);
    await deliver(both.url, paymentNotification(SECRET, order, 24999));
    const ids: number[] = [];
    for (let i = 0; i < SUBMITS; i++) {
      ids.push((await b.ok("POST", "/api/Generation/textPicSubmit", { prompt: `a lighthouse at dusk, take ${i}`, aspect: "1:1" })).id);
      await new Promise((r) => setTimeout(r, SUBMIT_EVERY_MS));
    }
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    let waits: number[] = [];
    await until(
      "every submit started",
      async () => {
        const rows = (
          await client.query<{ ms: number }>(
            "SELECT extract(epoch FROM started_at - created_at) * 1000 AS ms FROM generation_tasks WHERE id = ANY($1) AND started_at IS NOT NULL",
            [ids],
          )
        ).rows;
        waits = rows.map((r) => Number(r.ms));
        return rows.length === ids.length;
      },
      120_000,
    );
    await client.end();
    const detail = {
      connections: CONNECTIONS,
      roundS: ROUND_S,
      rounds,
      loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
      cpuCoresUsedWithTwoInstances: Object.fromEntries(Object.entries(cpu).map(([n, c]) => [n, Number(c.toFixed(2))])),
      submits: SUBMITS,
      submitEveryMs: SUBMIT_EVERY_MS,
      waitsMs: waits.map((w) => Math.round(w)),
    };
    return [
      { name: "personal_info through nginx, two instances (median of rounds)", value: two.rps, unit: "req/s", detail },
      { name: "personal_info through nginx, two instances, p99", value: two.p99, unit: "ms" },
      { name: "personal_info through nginx, one instance", value: oneProxied.rps, unit: "req/s" },
      { name: "personal_info through nginx, one instance, p99", value: oneProxied.p99, unit: "ms" },
      { name: "personal_info one instance on its own address", value: direct.rps, unit: "req/s" },
      { name: "personal_info one instance on its own address, p99", value: direct.p99, unit: "ms" },
      { name: "two instances / one instance through nginx (throughput)", value: (two.rps / oneProxied.rps) * 100, unit: "%" },
      { name: "submit to worker start, two workers, p50", value: percentile(waits, 50), unit: "ms" },
      { name: "submit to worker start, two workers, p99", value: percentile(waits, 99), unit: "ms" },
    ];
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
