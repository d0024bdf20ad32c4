import express, { type Express } from "express";
import helmet from "helmet";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { isDbReachable, type Db } from "./db/client.ts";
import { ApiRouter } from "./http/api.ts";
import { serveConsumerApp } from "./http/consumer-app.ts";
import { errorHandler, notFoundHandler } from "./http/error-handler.ts";
import { requestLog } from "./http/request-log.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { authRoutes } from "./domains/auth/auth.routes.ts";
import { createAuthService } from "./domains/auth/auth.service.ts";
import { createMailer } from "./domains/auth/mailer.ts";
import { createCreditsService } from "./domains/credits/credits.service.ts";
import { ordersRoutes } from "./domains/orders/orders.routes.ts";
import { createOrdersService } from "./domains/orders/orders.service.ts";
import { paymentsRoutes } from "./domains/payments/payments.routes.ts";
import { createPaymentsService } from "./domains/payments/payments.service.ts";
import { createPaypalProvider } from "./domains/payments/providers/paypal.provider.ts";
import { createSandboxProvider } from "./domains/payments/providers/sandbox.provider.ts";
import { createStripeProvider } from "./domains/payments/providers/stripe.provider.ts";
import { sandboxCheckoutRoutes } from "./domains/payments/sandbox/sandbox-checkout.routes.ts";
import { createSandboxGateway, sandboxEnabled } from "./domains/payments/sandbox/sandbox-gateway.ts";
import { productsRoutes } from "./domains/products/products.routes.ts";
import { createProductsService } from "./domains/products/products.service.ts";
import { siteRoutes } from "./domains/site/site.routes.ts";
import { staffRoutes } from "./domains/staff/staff.routes.ts";
import { createStaffService } from "./domains/staff/staff.service.ts";
import { resultsRoutes } from "./domains/results/results.routes.ts";
import { createResultsService } from "./domains/results/results.service.ts";
import { usersRoutes } from "./domains/users/users.routes.ts";
import { createUsersService } from "./domains/users/users.service.ts";
import { cachedEngineStatus, createEngine } from "./domains/generation/engines/registry.ts";
import { generationRoutes } from "./domains/generation/generation.routes.ts";
import { createGenerationService } from "./domains/generation/generation.service.ts";
import { createProgressHub } from "./domains/generation/progress.ts";
import { mediaRoutes } from "./domains/media/media.routes.ts";
import { templatesRoutes } from "./domains/templates/templates.routes.ts";
import { createTemplatesService } from "./domains/templates/templates.service.ts";
import { uploadsRoutes } from "./domains/uploads/uploads.routes.ts";
import { createUploadsService } from "./domains/uploads/uploads.service.ts";
import { createStorage } from "./storage/storage.ts";
import { faceAnalyser } from "./faces/faces.ts";
import { createConsentChecks } from "./domains/training/consent.ts";
import { trainingRoutes } from "./domains/training/training.routes.ts";
import { createTrainingService } from "./domains/training/training.service.ts";
import { createTrainingAdminService } from "./domains/training/training.admin.service.ts";
import { createTrainer } from "./domains/training/trainers/registry.ts";
import { createGenerationQueue } from "./worker/queue.ts";
import { adminRoutes } from "./admin/index.ts";
import { consoleApp } from "./admin/console-app.ts";
import { createAuditService } from "./domains/audit/audit.service.ts";
import { createDashboardService } from "./domains/dashboard/dashboard.service.ts";
import { createTasksAdminService } from "./domains/generation/tasks.admin.service.ts";
import { moderationRoutes } from "./domains/moderation/moderation.routes.ts";
import { createModerationService } from "./domains/moderation/moderation.service.ts";
import { createOrdersAdminService } from "./domains/orders/orders.admin.service.ts";
import { pixelsRoutes } from "./domains/pixels/pixels.routes.ts";
import { createPixelsService } from "./domains/pixels/pixels.service.ts";
import { createSiteAdminService } from "./domains/site/site.admin.service.ts";
import { createTemplatesAdminService } from "./domains/templates/templates.admin.service.ts";
import { createUsersAdminService } from "./domains/users/users.admin.service.ts";

export interface AppDeps {
  db: Db;
  config: Config;
  log: Logger;
  /** For LISTEN/NOTIFY and the job queue; defaults to DATABASE_URL. */
  databaseUrl?: string;
}

declare module "express-serve-static-core" {
  interface Request {
    /** The exact bytes received, kept for webhook signature checks. */
    rawBody?: Buffer;
  }
}

/** Every service of Reverie, wired once. Routes and the worker receive what they need from here. */
export function createServices({ db, config, log, databaseUrl }: AppDeps) {
  const limiter = new RateLimiter(db);
  const credits = createCreditsService(db);
  const mailer = createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, printToLog: config.NODE_ENV === "development" });
  const auth = createAuthService({ db, config, credits, mailer, limiter, log });
  const users = createUsersService(db);
  const url = databaseUrl ?? config.DATABASE_URL ?? "";
  const storage = createStorage(config);
  const uploads = createUploadsService(db, storage);
  const templates = createTemplatesService(db, storage);
  const engine = createEngine(config);
  const engineStatus = cachedEngineStatus(engine);
  const queue = createGenerationQueue({ url, config, log, role: "producer" });
  const progress = createProgressHub(url, log);
  const audit = createAuditService(db);
  const consent = createConsentChecks({ config, storage, faces: faceAnalyser() });
  const training = createTrainingService({ db, config, log, credits, storage, uploads, trainer: createTrainer(config), consent, queue, audit });
  const generation = createGenerationService({ db, config, credits, storage, templates, uploads, queue, engineLabel: engine.label, engineAppliesLora: engine.appliesLora ?? false, models: training });
  /** Releases the queue and LISTEN connections (the db itself belongs to the caller). */
  const close = async () => {
    await Promise.all([queue.stop(), progress.close()]);
  };
  const staff = createStaffService(db, audit);
  const products = createProductsService(db);
  const orders = createOrdersService({ db, config, credits, products, log });
  const sandboxGateway = createSandboxGateway({ db, config, log });
  const providers = { sandbox: createSandboxProvider(config, sandboxGateway), stripe: createStripeProvider(config, log), paypal: createPaypalProvider(config, log) };
  const payments = createPaymentsService({ config, log, orders, providers });
  const consoleServices = {
    audit,
    moderation: createModerationService({ db, audit, revokeUserSessions: auth.revokeUserSessions }),
    pixels: createPixelsService(db, audit),
    usersAdmin: createUsersAdminService({ db, audit, credits }),
    ordersAdmin: createOrdersAdminService(db),
    tasksAdmin: createTasksAdminService(db),
    templatesAdmin: createTemplatesAdminService(db, audit, storage),
    siteAdmin: createSiteAdminService(db, audit),
    dashboard: createDashboardService(db),
    trainingAdmin: createTrainingAdminService(db, storage),
  };
  const results = createResultsService(db);
  return { training, limiter, credits, mailer, auth, users, staff, products, orders, sandboxGateway, payments, ...consoleServices, storage, uploads, templates, engine, engineStatus, queue, progress, generation, results, close };
}

export type Services = ReturnType<typeof createServices>;

/** The Express app, without listening (tests mount it with supertest). */
export function createApp(deps: AppDeps): { app: Express; services: Services; api: ApiRouter } {
  const { db, config, log } = deps;
  const services = createServices(deps);
  const app = express();
  app.set("trust proxy", config.TRUST_PROXY);
  app.set("case sensitive routing", false);
  app.disable("x-powered-by");
  // API answers are no-store, so an ETag (a hash of every body) buys nothing; static files keep theirs.
  app.set("etag", false);

  app.use(requestLog(log));
  app.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  app.use(["/api", "/admin/api"], (_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  const keepRaw = (req: express.Request, _res: unknown, buf: Buffer) => {
    req.rawBody = buf;
  };
  app.use(express.json({ limit: "1mb", verify: keepRaw }));
  app.use(express.urlencoded({ extended: false, limit: "100kb" }));

  const api = new ApiRouter((req) => services.auth.resolvePrincipal(tokenOf(req)));
  siteRoutes(api, () => isDbReachable(db));
  authRoutes(api, services.auth, services.users);
  usersRoutes(api, services.users, services.credits);
  mediaRoutes(api, services.storage);
  const perUserHourly = (scope: string, limit: number) =>
    services.limiter.middleware(scope, (req) => [{ key: `user:${req.principal?.kind === "user" ? req.principal.userId : "-"}`, limit, windowSeconds: 3600 }]);
  uploadsRoutes(api, services.uploads, perUserHourly("upload", config.RATE_LIMIT_UPLOADS_PER_HOUR));
  templatesRoutes(api, services.templates, config, services.engineStatus);
  generationRoutes(api, services.generation, services.progress, services.engineStatus, perUserHourly("generate", config.RATE_LIMIT_GENERATIONS_PER_HOUR));
  resultsRoutes(api, services.results);
  trainingRoutes(api, services.training, perUserHourly("training", config.RATE_LIMIT_GENERATIONS_PER_HOUR));
  staffRoutes(api, services.staff);
  productsRoutes(api, services.products);
  ordersRoutes(api, services.orders);
  paymentsRoutes(api, services.payments, services.limiter, config.RATE_LIMIT_ORDERS_PER_HOUR);
  if (sandboxEnabled(config)) sandboxCheckoutRoutes(api, services.sandboxGateway);
  pixelsRoutes(api, services.pixels);
  moderationRoutes(api, services.moderation, services.limiter, config.RATE_LIMIT_REPORTS_PER_HOUR);
  adminRoutes(api, services);
  app.use(api.router);

  const openApi = api.openApiDocument();
  app.get("/api/docs", (_req, res) => {
    res.json(openApi);
  });

  app.use(["/api", "/admin/api"], notFoundHandler);
  app.use("/console", consoleApp(config.consoleDir));
  serveConsumerApp(app, config.CONSUMER_DIST_DIR);
  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return { app, services, api };
}

function tokenOf(req: express.Request): string | undefined {
  const header = req.get("token");
  if (header) return header;
  const auth = req.get("authorization");
  return auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
}
