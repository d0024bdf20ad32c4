import type { Server } from "node:http";
import { config, type Config } from "./config.ts";
import type { Database } from "./db/database.ts";
import { underStartupLock } from "./db/migrate.ts";
import { startDatabaseServer, stopOnSignalsElsewhere, type DatabaseServer } from "./db/embedded.ts";
import { sandboxWarning } from "./domains/payments/sandbox/sandbox-gateway.ts";
import { createLogger, beginStop } from "./logger.ts";
import { endEventStreams } from "./http/sse.ts";

let cfg: Config;
try {
  cfg = config();
} catch (err) {
  // A bad setting stops the start with a message naming it, not a stack trace.
  console.error((err as Error).message);
  process.exit(1);
}
const log = createLogger(cfg);
// free test payments that grant real credits, opened where others reach them: said once, before anything else
const sandboxRisk = sandboxWarning(cfg);
if (sandboxRisk) log.warn(sandboxRisk);

let pgServer: DatabaseServer | undefined;
let database: Database | undefined;
let server: Server | undefined;
let orderSweep: NodeJS.Timeout | undefined;
let conversionRound: NodeJS.Timeout | undefined;
/** Released on shutdown before the database: the generation worker and the app's queue/LISTEN connections. */
let stopGeneration: (() => Promise<void>) | undefined;
let stopping = false;

/** How long requests in flight at a stop may take to finish before their connections are cut. */
const REQUESTS_GRACE_MS = 5_000;
/** The whole stop's bound (README, decision 362): past it the process exits with 1, whatever is still closing. */
const STOP_BOUND_MS = 20_000;

/**
 * Stops serving (no new connection; requests in flight finish, up to REQUESTS_GRACE_MS; event streams end with a
 * `reconnect` event), hands the queue's jobs back, then closes the database (and the embedded PostgreSQL), whatever
 * stage start-up reached. SIGTERM (a process manager) and SIGINT (Ctrl-C) to this process alone both do it.
 */
async function shutdown(reason: string, exitCode: number) {
  if (stopping) return;
  stopping = true;
  log.info({ reason }, "shutting down");
  beginStop(log);
  setTimeout(() => {
    log.error({ boundMs: STOP_BOUND_MS }, "the stop took too long: exiting with what is still closing");
    log.flush();
    process.exit(1);
  }, STOP_BOUND_MS).unref();
  clearInterval(orderSweep);
  clearInterval(conversionRound);
  if (server) {
    const listening = server;
    const closed = new Promise<void>((resolve) => listening.close(() => resolve()));
    const streams = endEventStreams();
    listening.closeIdleConnections();
    const grace = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), REQUESTS_GRACE_MS).unref());
    if (!(await Promise.race([closed.then(() => true), grace]))) log.warn({ graceMs: REQUESTS_GRACE_MS }, "requests still running at the stop were cut");
    listening.closeAllConnections();
    log.info({ streams }, "stopped serving");
  }
  try {
    await stopGeneration?.();
    if (database) await database.close();
    else await pgServer?.stop?.();
  } catch (err) {
    log.error({ err }, "database did not close cleanly");
    exitCode ||= 1;
  }
  process.exit(exitCode);
}
process.on("SIGINT", () => void shutdown("SIGINT", 0));
process.on("SIGTERM", () => void shutdown("SIGTERM", 0));
// shutdown() stops the embedded PostgreSQL itself, after the queue and the worker that use it
stopOnSignalsElsewhere(["SIGINT", "SIGTERM"]);

try {
  // Loading Prisma and the app's modules costs more than starting PostgreSQL, which runs in its own process: overlap
  // them, PostgreSQL first, so that its process is spawned before module loading fills this thread.
  const pgStarting = startDatabaseServer(cfg, log);
  const modules = Promise.all([
    import("./db/database.ts"),
    import("./app.ts"),
    import("../../prisma/seed.ts"),
    import("./worker/generation.worker.ts"),
    import("./domains/templates/template-previews.ts"),
    import("./domains/notifications/notifications.jobs.ts"),
  ]);
  // both are awaited below; this only keeps an early failure from counting as unhandled meanwhile
  pgStarting.catch(() => undefined);
  modules.catch(() => undefined);
  pgServer = await pgStarting;
  const [{ connectDatabase }, { createApp }, { seed }, { startGenerationWorker }, { createTemplatePreviews }, { startDigestJobs }] = await modules;
  database = await connectDatabase(pgServer, cfg, log);
  // instances started together seed one at a time (each step creates what is missing)
  if (cfg.SEED_ON_START) await underStartupLock(database.url, () => seed(database!.db, { config: cfg, log }));
  const { app, services } = createApp({ db: database.db, config: cfg, log, databaseUrl: database.url });
  let worker: ReturnType<typeof startGenerationWorker> | undefined;
  let stopPreviews: (() => Promise<void>) | undefined;
  let digests: ReturnType<typeof startDigestJobs> | undefined;
  stopGeneration = async () => {
    await stopPreviews?.();
    digests?.stop();
    // a worker still starting is let finish, then stopped: closing the database under it would be logged as its error
    await (await worker?.catch(() => undefined))?.stop();
    await services.close();
  };
  orderSweep = setInterval(() => {
    services.payments.expireAbandoned().catch((err: unknown) => log.error({ err }, "order expiry sweep failed"));
    // wallet payments send no notification: their transfers are looked up on chain (docs/decisions/210)
    services.payments.sweepWalletOrders().catch((err: unknown) => log.error({ err }, "wallet payment sweep failed"));
    // custom requests nobody answered in time give the fan's held credits back (issue 16)
    services.creators.expireRequests().catch((err: unknown) => log.error({ err }, "custom request expiry sweep failed"));
    // paid creator memberships whose period ended renew from the fan's balance, once per period, or end (decision 204)
    services.creators.renewMemberships().catch((err: unknown) => log.error({ err }, "creator membership renewal sweep failed"));
    // the sandbox provider charges its plans' due periods and notifies the webhook, as a real provider would (decision 257)
    services.sandboxSubscriptions.sweep().catch((err: unknown) => log.error({ err }, "sandbox subscription sweep failed"));
    // account deletions whose erase job was lost are erased once their grace period is over (decision 262)
    services.privacy.eraseOverdue().catch((err: unknown) => log.error({ err }, "account erasure sweep failed"));
  }, cfg.ORDER_SWEEP_SECONDS * 1000);
  orderSweep.unref();
  // tokens older versions kept in channel rows move into the secret store before any conversion is sent (decision 191)
  await services.pixels.sealLegacyTokens(log).catch((err: unknown) => log.error({ err }, "moving conversion API tokens into the secret store failed"));
  // server-side purchase conversions waiting in the outbox (docs/decisions/121)
  conversionRound = setInterval(() => {
    services.conversions.deliverDue().catch((err: unknown) => log.error({ err }, "conversion delivery round failed"));
  }, cfg.CONVERSION_POLL_SECONDS * 1000);
  conversionRound.unref();
  const listening = app.listen(cfg.PORT, cfg.HOST);
  server = listening;
  await new Promise<void>((resolve, reject) => {
    listening.once("listening", resolve);
    listening.once("error", reject);
  });
  const address = listening.address();
  const port = typeof address === "object" && address ? address.port : cfg.PORT;
  log.info(`Reverie is ready at http://localhost:${port}`);
  log.flush();
  // every configured engine is checked at start; one that cannot run is logged once with its fix (the worker checks too)
  if (!cfg.RUN_WORKER) void services.engines.checkAll().catch((err: unknown) => log.error({ err }, "engine check failed"));
  // after listening, so the queue's set-up never delays the first answer; submits are queued meanwhile
  if (cfg.RUN_WORKER && !stopping) {
    worker = startGenerationWorker({
      databaseUrl: database.url,
      config: cfg,
      log,
      generation: services.generation,
      storage: services.storage,
      engines: services.engines,
      limiter: services.limiter,
      training: services.training,
      provenance: services.provenance,
    });
    await worker;
    // previews show the local engine's motion templates
    if (cfg.TEMPLATE_PREVIEWS && !stopping)
      stopPreviews = createTemplatePreviews({ db: database.db, storage: services.storage, engine: services.engines.require("local"), log }).start(
        cfg.TEMPLATE_PREVIEW_SWEEP_SECONDS,
      );
  }
  // data exports, account erasures (decisions 261, 262) and the daily email digests (docs/decisions/312) need every
  // domain, which only the API builds (a `npm run worker` process renders only): every API instance works their queues,
  // with or without a worker of its own, and pg-boss hands each job to one of them (issue 49, decision 382)
  if (!stopping) await services.privacy.startJobs();
  if (!stopping) await (digests = startDigestJobs(services.queue.ready, services.notificationDigests, log)).started;
} catch (err) {
  // Ctrl-C while the worker was still starting closes what it was starting on: that is the stop asked for, not a failure.
  // A terminal's Ctrl-C reaches PostgreSQL too, and its ended connections can be read before this process's own SIGINT
  // is handled: give that signal a moment to arrive before calling this a failed start.
  await new Promise((resolve) => setTimeout(resolve, 100));
  if (!stopping) {
    log.fatal({ err }, "start-up failed");
    await shutdown("start-up failed", 1);
  }
}
