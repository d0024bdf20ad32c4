import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import pg from "pg";
import { startEmbeddedPostgres } from "../server/src/db/embedded.ts";
import { runMigrations } from "../server/src/db/migrate.ts";
import { buildTarget } from "../scripts/build.ts";
import { freePort } from "./net-utils.ts";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

interface RunDatabase {
  adminUrl: string;
  template: string;
  stop(): Promise<void>;
  users: number;
}

/** The run's database, shared by the `api` and `browser` projects, which each run this set-up (docs/decisions/232). */
const shared = globalThis as typeof globalThis & { reverieRunDatabase?: Promise<RunDatabase> };

/**
 * One throw-away PostgreSQL for the whole run, in a temp dir; a migrated template database that
 * every test file clones (CREATE DATABASE ... TEMPLATE), so files never share data.
 */
async function startRunDatabase(): Promise<RunDatabase> {
  // the start-up tests run the built server, as `npm start` does
  await buildTarget("server");
  const dir = await fs.mkdtemp(path.join(await scratchRoot(), "reverie-test-"));
  const server = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const template = "reverie_template";
  const adminUrl = server.url.replace(/\/reverie$/, "/postgres");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  await runMigrations(server.url.replace(/\/reverie$/, `/${template}`));
  return {
    adminUrl,
    template,
    users: 0,
    async stop() {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Room the run's cluster may take: its template, a few databases being cloned and dropped at once, and its WAL. */
const CLUSTER_ROOM = 2 * 1024 ** 3;

/**
 * Where the run's throw-away cluster lives: in memory (/dev/shm) when there is room there. Every test file creates and
 * drops a database of ~800 files, and on this machine's disk that file-system work was a fifth of the API tests' time
 * (docs/decisions/322). Elsewhere (no /dev/shm, or a small one, as in many containers) the system's temp folder.
 */
async function scratchRoot(): Promise<string> {
  const shm = "/dev/shm";
  const room = await fs.statfs(shm).then(
    (s) => s.bavail * s.bsize,
    () => 0,
  );
  return room >= CLUSTER_ROOM ? shm : os.tmpdir();
}

export default async function setup(project: TestProject) {
  shared.reverieRunDatabase ??= startRunDatabase();
  const run = await shared.reverieRunDatabase;
  run.users++;
  project.provide("pgAdminUrl", run.adminUrl);
  project.provide("pgTemplate", run.template);
  return async () => {
    if (--run.users > 0) return;
    delete shared.reverieRunDatabase;
    await run.stop();
  };
}
