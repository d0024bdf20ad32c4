import type { Server } from "node:http";
import { createApp } from "./app.ts";
import { config } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { createLogger } from "./logger.ts";
import { seed } from "../../prisma/seed.ts";
import { startGenerationWorker } from "./worker/generation.worker.ts";

const cfg = config();
const log = createLogger(cfg);
const database = await openDatabase(cfg, log);
if (cfg.SEED_ON_START) await seed(database.db, { config: cfg, log });
const { app, services } = createApp({ db: database.db, config: cfg, log, databaseUrl: database.url });
const worker = cfg.RUN_WORKER
  ? await startGenerationWorker({ databaseUrl: database.url, config: cfg, log, generation: services.generation, storage: services.storage, engine: services.engine, limiter: services.limiter })
  : undefined;

const server: Server = app.listen(cfg.PORT, cfg.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : cfg.PORT;
  log.info(`Reverie is ready at http://localhost:${port}`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down");
  server.close();
  server.closeAllConnections();
  await worker?.stop();
  await services.close();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
