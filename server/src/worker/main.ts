import path from "node:path";
import { createRenderServices } from "../render-services.ts";
import { config } from "../config.ts";
import { createDb } from "../db/client.ts";
import { dbOptions } from "../db/database.ts";
import { waitForMigrations } from "../db/migrate.ts";
import { embeddedUrl } from "../db/embedded.ts";
import { createLogger, beginStop } from "../logger.ts";
import { createTemplatePreviews } from "../domains/templates/template-previews.ts";
import { startGenerationWorker } from "./generation.worker.ts";

/**
 * `npm run worker`: a generation worker process on its own. With DATABASE_URL unset it joins the embedded
 * PostgreSQL that `npm start` runs (same EMBEDDED_PG_PORT); it never starts or migrates a database itself, and waits
 * until the API has applied every migration this build ships.
 */
const cfg = { ...config(), RUN_WORKER: true };
const log = createLogger(cfg);
const url = cfg.DATABASE_URL ?? (await embeddedUrl(path.join(cfg.dataDir, "pg"), cfg.EMBEDDED_PG_PORT));
const db = createDb(url, cfg.WORKER_CONCURRENCY + 2, dbOptions(cfg, log, cfg.DB_WORKER_STATEMENT_TIMEOUT_MS));
// a worker started beside the API instances on an empty database waits for the one instance that migrates (issue 49)
await waitForMigrations(db, log);
const services = createRenderServices({ db, config: cfg, log, databaseUrl: url });
const worker = await startGenerationWorker({
  databaseUrl: url,
  config: cfg,
  log,
  generation: services.generation,
  storage: services.storage,
  engines: services.engines,
  limiter: services.limiter,
  training: services.training,
  provenance: services.provenance,
});
// the line that says it serves, out now rather than with the next 4 KB of batched lines
log.flush();
// previews show the local engine's motion templates
const stopPreviews = cfg.TEMPLATE_PREVIEWS
  ? createTemplatePreviews({ db, storage: services.storage, engine: services.engines.require("local"), log }).start(cfg.TEMPLATE_PREVIEW_SWEEP_SECONDS)
  : undefined;

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "worker shutting down");
  beginStop(log);
  await stopPreviews?.();
  await worker.stop();
  await services.close();
  await db.$disconnect();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
