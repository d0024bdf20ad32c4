import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../server/src/db/client.ts";
import { seedProducts } from "../../server/src/domains/products/products.seed.ts";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { chatBackendsEnv } from "../chat-utils.ts";
import { startFakeOpenAi } from "../fixtures/fake-openai.ts";
import { startS3rver } from "../fixtures/s3rver.ts";
import { freePort } from "../net-utils.ts";
import { backupJourney } from "./backup.ts";
import { type Layout, startLayout, stopLayout, until } from "./cluster.ts";
import { type Ctx, journeys, sql } from "./journeys.ts";
import { startNginx } from "./nginx.ts";
import { startPostgres } from "./postgres.ts";

/**
 * `npm run test:scale` (issue 49): the README's "Running at scale" layout on this machine — a PostgreSQL server of its
 * own, an S3-protocol store (s3rver), an OpenAI-protocol chat back end (the tests' fake), two API instances and two
 * workers started together on an empty database, nginx in front as the README configures it — and the journeys that cross instances, through nginx only. One line per journey
 * with its time, then "N passed, N failed"; everything it started is stopped, on failure and on Ctrl-C too.
 */
const GUESTS_PER_HOUR = 12;
/** How long four processes may take to start on an empty database: under a minute on a quiet machine, minutes on a loaded one. */
const START_MS = 300_000;
const WEBHOOK_SECRET = "scale-sandbox-webhook-secret-0123";
const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-scale-"));
await fs.chmod(dir, 0o755);
const stops: (() => Promise<unknown>)[] = [];
let failed = 0;
let passed = 0;
let stopping: Promise<void> | undefined;
const stopAll = () =>
  (stopping ??= (async () => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.log(`stopping: ${(err as Error).message}`));
    await fs.rm(dir, { recursive: true, force: true });
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.log(`test:scale: ${signal}, stopping everything it started`);
    void stopAll().then(() => process.exit(130));
  });
}
/**
 * For a failure's cause, each process: whether it still runs, what it warned of (request lines are level 30), its last
 * info line (how far a start got) and anything it wrote that is not a log line (a crash's stack).
 */
function report(l: Layout) {
  for (const p of [...l.apis, ...l.workers]) {
    const lines = p.lines();
    const shown = [...lines.filter((x) => Number(x.level) >= 40), lines.at(-1)].filter((x, i, all) => x && all.indexOf(x) === i);
    const state = p.gone() ? `exited ${p.child.exitCode ?? p.child.signalCode}` : "running";
    console.log(`--- ${p.name} (${state})\n${[...shown.map((x) => JSON.stringify(x)), ...p.otherLines().slice(-120)].join("\n")}`);
  }
}
/** The layout once started, for the report after a failure. */
let reported: Layout | undefined;
const started = Date.now();
try {
  execFileSync(path.join(PROJECT_DIR, "node_modules/.bin/tsx"), ["scripts/build.ts", "server"], { cwd: PROJECT_DIR, stdio: "inherit" });
  const db = await startPostgres(path.join(dir, "pg"), await freePort(), "scale-test-password");
  stops.push(db.stop);
  const store = await startS3rver();
  stops.push(store.close);
  const chat = await startFakeOpenAi();
  stops.push(chat.close);
  const apiPorts: [number, number] = [await freePort(), await freePort()];
  const proxyPort = await freePort();
  const layout: Layout = startLayout({
    dir,
    databaseUrl: db.url,
    storageEnv: store.env,
    apiPorts,
    env: {
      PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
      // the shop's sandbox checkout, its notifications signed with a secret every instance shares
      SANDBOX_PAY_ENABLED: "true",
      SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
      RATE_LIMIT_VISITOR_PER_HOUR: String(GUESTS_PER_HOUR),
      FREE_GENERATIONS: "0",
      ACCOUNT_DELETION_GRACE_DAYS: "0",
      // a killed worker's task is run again after 8 s of silence, not the production 15 (3 s is within the pauses a
      // loaded machine gives a worker's event loop: a live worker could lose its task)
      QUEUE_POLL_SECONDS: "0.5",
      QUEUE_MAINTENANCE_SECONDS: "1",
      GENERATION_HEARTBEAT_SECONDS: "2",
      GENERATION_STALE_SECONDS: "8",
      GENERATION_RETRY_DELAY_SECONDS: "0",
      // two of each on two cores: one render at a time per worker
      WORKER_CONCURRENCY: "1",
      CHAT_BACKENDS: chatBackendsEnv([chat], { maxReplyTokens: 4000 }),
    },
  });
  stops.push(() => stopLayout(layout));
  reported = layout;
  const nginx = await startNginx(path.join(dir, "nginx"), proxyPort, apiPorts);
  stops.push(nginx.stop);
  await until(
    "both instances ready",
    async () => {
      const answers = await Promise.all(
        layout.apis.map((a) =>
          fetch(`${a.url}/api/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      return answers.every((s) => s === 200);
    },
    START_MS,
  );
  await until(
    "both workers started",
    () => {
      const gone = [...layout.apis, ...layout.workers].filter((p) => p.gone());
      if (gone.length) throw new Error(`${gone.map((p) => `${p.name} (${p.child.exitCode ?? p.child.signalCode})`).join(", ")} exited while starting`);
      return layout.workers.every((w) => w.lines().some((l) => l.msg === "generation worker started"));
    },
    START_MS,
  );
  console.log(`layout up in ${((Date.now() - started) / 1000).toFixed(1)} s (build included)`);
  // the shop's packs, as an operator sets them up in the console
  const prisma = createDb(db.url, 2);
  stops.push(() => prisma.$disconnect());
  await seedProducts(prisma);
  const products = Object.fromEntries((await prisma.product.findMany()).map((p) => [p.code, p.id]));
  const ctx: Ctx = { nginx, layout, db, store, prisma, products, webhookSecret: WEBHOOK_SECRET, guestsPerHour: GUESTS_PER_HOUR, chat };
  // `npm run test:scale -- <words>`: only the journeys whose name has one of them (the layout's own checks always run)
  const only = process.argv.slice(2);
  const chosen = [...journeys, backupJourney].filter((j, i) => i === 0 || !only.length || only.some((w) => j.name.includes(w)));
  for (const j of chosen) {
    const t0 = Date.now();
    try {
      const measured = await j.run(ctx);
      passed++;
      console.log(`ok   ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${j.name}${measured ? `\n     ${measured}` : ""}`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s  ${j.name}\n     ${(err as Error).stack}`);
    }
  }
  // what the layout holds of PostgreSQL's connections (README, sizing): by pool, as each names itself
  const held = await sql<{ name: string; n: number }>(
    ctx,
    "SELECT coalesce(nullif(application_name, ''), 'prisma pool') AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = 'reverie' GROUP BY 1 ORDER BY 2 DESC",
  );
  console.log(`connections held by 2 instances + 2 workers: ${held.reduce((n, r) => n + r.n, 0)} (${held.map((r) => `${r.name} ${r.n}`).join(", ")})`);
  const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  const running = [...layout.apis, ...layout.workers].filter((p) => !p.gone());
  console.log(`resident memory: ${running.map((p) => `${p.name} ${rss(p.child.pid!).toFixed(0)} MB`).join(", ")}`);
} catch (err) {
  failed++;
  console.log(`FAIL setting up the layout: ${(err as Error).stack}`);
} finally {
  if (failed && reported) report(reported);
  await stopAll();
}
console.log(`test:scale: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = failed ? 1 : 0;
