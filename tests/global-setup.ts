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

/**
 * One throw-away PostgreSQL for the whole run, in a temp dir; a migrated template database that
 * every test file clones (CREATE DATABASE ... TEMPLATE), so files never share data.
 */
export default async function setup(project: TestProject) {
  // the start-up tests run the built server, as `npm start` does
  await buildTarget("server");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "reverie-test-"));
  const server = await startEmbeddedPostgres(path.join(dir, "pg"), await freePort());
  const template = "reverie_template";
  const admin = new pg.Client({ connectionString: server.url.replace(/\/reverie$/, "/postgres") });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  await admin.end();
  await runMigrations(server.url.replace(/\/reverie$/, `/${template}`));
  project.provide("pgAdminUrl", server.url.replace(/\/reverie$/, "/postgres"));
  project.provide("pgTemplate", template);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
