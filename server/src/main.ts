import type { Server } from "node:http";
import { createApp } from "./app.ts";
import { config } from "./config.ts";
import { openDatabase } from "./db/database.ts";
import { createLogger } from "./logger.ts";
import { seed } from "../../prisma/seed.ts";

const cfg = config();
const log = createLogger(cfg);
const database = await openDatabase(cfg, log);
if (cfg.SEED_ON_START) await seed(database.db, { config: cfg, log });
const { app, services } = createApp({ db: database.db, config: cfg, log });
const orderSweep = setInterval(() => {
  services.payments.expireAbandoned().catch((err: unknown) => log.error({ err }, "order expiry sweep failed"));
}, cfg.ORDER_SWEEP_SECONDS * 1000);
orderSweep.unref();

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
  clearInterval(orderSweep);
  server.close();
  server.closeAllConnections();
  await database.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
