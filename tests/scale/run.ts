import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { migrationFiles } from "../../server/src/db/migrate.ts";
import { PROJECT_DIR } from "../../server/src/paths.ts";
import { startS3rver } from "../fixtures/s3rver.ts";
import { freePort } from "../net-utils.ts";
import { type Layout, startLayout, stopLayout, until } from "./cluster.ts";
import { startNginx } from "./nginx.ts";
import { startPostgres } from "./postgres.ts";

/**
 * `npm run test:scale` (issue 49): the README's "Running at scale" layout on this machine — a PostgreSQL server of its
 * own, an S3-protocol store (s3rver), two API instances and two workers started together on an empty database, nginx in
 * front as the README configures it — and the journeys that cross instances, through nginx only. One line per journey
 * with its time, then "N passed, N failed"; everything it started is stopped.
 */
type Journey = { name: string; run: () => Promise<void> };

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-scale-"));
await fs.chmod(dir, 0o755);
const stops: (() => Promise<unknown>)[] = [];
let failed = 0;
let passed = 0;
try {
  execFileSync(path.join(PROJECT_DIR, "node_modules/.bin/tsx"), ["scripts/build.ts", "server"], { cwd: PROJECT_DIR, stdio: "inherit" });
  const db = await startPostgres(path.join(dir, "pg"), await freePort(), "scale-test-password");
  stops.push(db.stop);
  const store = await startS3rver();
  stops.push(store.close);
  const apiPorts: [number, number] = [await freePort(), await freePort()];
  const layout: Layout = startLayout({ dir, databaseUrl: db.url, storageEnv: store.env, apiPorts, env: { QUEUE_POLL_SECONDS: "0.5" } });
  stops.push(() => stopLayout(layout));
  const nginx = await startNginx(path.join(dir, "nginx"), await freePort(), apiPorts);
  stops.push(nginx.stop);
  const proxied = (p: string, init?: RequestInit) => fetch(`${nginx.url}${p}`, init);

  const journeys: Journey[] = [
    {
      name: "four processes started together on an empty database: the migrations ran once, the others waited, all four serve",
      async run() {
        await until("both instances ready", async () => {
          const answers = await Promise.all(
            layout.apis.map((a) =>
              fetch(`${a.url}/api/ready`).then(
                (r) => r.status,
                () => 0,
              ),
            ),
          );
          return answers.every((s) => s === 200);
        });
        await until("both workers started", () => layout.workers.every((w) => w.lines().some((l) => l.msg === "generation worker started")));
        const shipped = await migrationFiles();
        const applied = layout.apis.map((a) => (a.lines().find((l) => l.msg === "migrations applied")?.applied as string[] | undefined) ?? []);
        if (applied.filter((a) => a.length).length !== 1) throw new Error(`migrations applied by ${applied.map((a) => a.length).join(" and ")} files`);
        if (applied.flat().length !== shipped.length) throw new Error(`${applied.flat().length} of ${shipped.length} migrations applied`);
        const c = new pg.Client({ connectionString: db.url });
        await c.connect();
        const rows = (await c.query("SELECT count(*)::int AS n FROM schema_migrations")).rows[0].n;
        await c.end();
        if (rows !== shipped.length) throw new Error(`schema_migrations has ${rows} rows, ${shipped.length} shipped`);
        for (const w of layout.workers) {
          if (!w.lines().some((l) => l.msg === "waiting for the API to apply the migrations")) throw new Error(`${w.name} did not wait for the migrations`);
        }
        const viaProxy = await Promise.all([1, 2, 3, 4].map(() => proxied("/api/ready").then((r) => r.status)));
        if (viaProxy.some((s) => s !== 200)) throw new Error(`through nginx: ${viaProxy}`);
        const served = new Set((await nginx.upstreams()).slice(-4));
        if (served.size !== 2) throw new Error(`nginx sent four requests to ${[...served]}`);
      },
    },
  ];
  for (const j of journeys) {
    const started = Date.now();
    try {
      await j.run();
      passed++;
      console.log(`ok   ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${j.name}`);
    } catch (err) {
      failed++;
      console.log(`FAIL ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${j.name}\n     ${(err as Error).stack}`);
    }
  }
  if (failed) for (const p of [...layout.apis, ...layout.workers]) console.log(`--- ${p.name}\n${JSON.stringify(p.lines().slice(-8), null, 1)}`);
} catch (err) {
  failed++;
  console.log(`FAIL setting up the layout: ${(err as Error).stack}`);
} finally {
  for (const stop of stops.reverse()) await stop().catch((err: unknown) => console.log(`stopping: ${(err as Error).message}`));
  await fs.rm(dir, { recursive: true, force: true });
}
console.log(`test:scale: ${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
