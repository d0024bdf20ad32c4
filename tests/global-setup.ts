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
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-test-"));
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
