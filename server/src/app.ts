import express, { type Express, type RequestHandler } from "express";
import helmet from "helmet";
import { isDbReachable } from "./db/client.ts";
import { ApiRouter } from "./http/api.ts";
import { serveConsumerApp } from "./http/consumer-app.ts";
import { errorHandler, notFoundHandler } from "./http/error-handler.ts";
import { requestLog } from "./http/request-log.ts";
import { httpMetrics, serveMetrics } from "./metrics/metrics.http.ts";
import { perAccountInFlight } from "./http/in-flight.ts";
import { MSG } from "./http/messages.ts";
import { authRoutes } from "./domains/auth/auth.routes.ts";
import { membershipsRoutes } from "./domains/memberships/memberships.routes.ts";
import { ordersRoutes } from "./domains/orders/orders.routes.ts";
import { paymentsRoutes } from "./domains/payments/payments.routes.ts";
import { walletsRoutes } from "./domains/wallets/wallets.routes.ts";
import { privacyRoutes } from "./domains/privacy/privacy.routes.ts";
import { sandboxCheckoutRoutes } from "./domains/payments/sandbox/sandbox-checkout.routes.ts";
import { sandboxEnabled } from "./domains/payments/sandbox/sandbox-gateway.ts";
import { productsRoutes } from "./domains/products/products.routes.ts";
import { siteRoutes } from "./domains/site/site.routes.ts";
import { staffRoutes } from "./domains/staff/staff.routes.ts";
import { usersRoutes } from "./domains/users/users.routes.ts";
import { generationRoutes } from "./domains/generation/generation.routes.ts";
import { LIMIT_MESSAGES } from "./contract/limits.ts";
import { chatRoutes } from "./domains/chat/chat.routes.ts";
import { creatorsRoutes } from "./domains/creators/creators.routes.ts";
import { payoutsRoutes } from "./domains/creators/payouts.routes.ts";
import { messagesRoutes } from "./domains/messages/messages.routes.ts";
import { mediaRoutes } from "./storage/storage.routes.ts";
import { templatesRoutes } from "./domains/templates/templates.routes.ts";
import { uploadsRoutes } from "./domains/uploads/uploads.routes.ts";
import { trainingRoutes } from "./domains/training/training.routes.ts";
import { supportRoutes } from "./domains/support/support.routes.ts";
import { legalRoutes } from "./domains/legal/legal.routes.ts";
import { provenanceRoutes } from "./domains/provenance/provenance.routes.ts";
import { rewardsRoutes } from "./domains/rewards/rewards.routes.ts";
import { notificationsRoutes } from "./domains/notifications/notifications.routes.ts";
import { adminRoutes } from "./admin/index.ts";
import { consoleApp } from "./admin/console-app.ts";
import { moderationRoutes } from "./domains/moderation/moderation.routes.ts";
import { pixelsRoutes } from "./domains/pixels/pixels.routes.ts";
import type { AppDeps } from "./render-services.ts";
import { createServices, type Services } from "./services.ts";

declare module "express-serve-static-core" {
  interface Request {
    /** The exact bytes received, kept for webhook signature checks. */
    rawBody?: Buffer;
  }
}

/**
 * What one account may make in chat each hour (docs/decisions/251), counted per account by the shared limiter: refused
 * with a message the person reads, not SPEC's silent 'Too many requests'. Custom requests and library items are
 * counted from their rows by the creators domain.
 */
function chatLimits(limiter: Services["limiter"], config: AppDeps["config"]) {
  const hourly = (scope: string, limit: number) => limiter.perUser(scope, limit, 3600, LIMIT_MESSAGES.hourly);
  return {
    characters: hourly("character", config.RATE_LIMIT_CHARACTERS_PER_HOUR),
    conversations: hourly("conversation", config.RATE_LIMIT_CONVERSATIONS_PER_HOUR),
    drafts: hourly("character-draft", config.RATE_LIMIT_DRAFTS_PER_HOUR),
    avatars: hourly("avatar", config.RATE_LIMIT_AVATARS_PER_HOUR),
  };
}

/** Every domain's routes on the one API router, in the order their paths are matched. */
function mountRoutes(api: ApiRouter, services: Services, { db, config }: AppDeps): void {
  siteRoutes(
    api,
    services.site,
    () => isDbReachable(db),
    config,
    services.engineStatus,
    services.cityRedirects,
    () => services.generation.priceRange(),
  );
  authRoutes(api, services.auth, services.users);
  usersRoutes(api, services.users, services.credits);
  mediaRoutes(api, services.storage);
  const perUserHourly = (scope: string, limit: number) => services.limiter.perUser(scope, limit, 3600);
  uploadsRoutes(api, services.uploads, {
    perUserHourly: perUserHourly("upload", config.RATE_LIMIT_UPLOADS_PER_HOUR),
    atOnce: perAccountInFlight(config.UPLOADS_AT_ONCE_PER_ACCOUNT, MSG.uploadsAtOnce),
  });
  templatesRoutes(api, services.templates);
  // submits are counted against RATE_LIMIT_GENERATIONS_PER_HOUR by the generation service, after the cheap refusal
  generationRoutes(api, services.generation, services.progress, services.engineStatus);
  trainingRoutes(api, services.training, perUserHourly("training", config.RATE_LIMIT_GENERATIONS_PER_HOUR));
  staffRoutes(api, services.staff);
  productsRoutes(api, services.products);
  ordersRoutes(api, services.orders, services.receipts);
  paymentsRoutes(api, services.payments, services.limiter, config.RATE_LIMIT_ORDERS_PER_HOUR);
  membershipsRoutes(api, services.payments);
  walletsRoutes(api, services.wallets, services.limiter, config);
  privacyRoutes(api, services.privacy);
  if (sandboxEnabled(config)) sandboxCheckoutRoutes(api, services.sandboxGateway, services.sandboxSubscriptions);
  pixelsRoutes(api, services.pixels);
  creatorsRoutes(api, services.creators, services.storage);
  payoutsRoutes(api, services.payouts);
  messagesRoutes(api, services.messages, services.storage);
  chatRoutes(api, services.chat, { replies: perUserHourly("chat", config.RATE_LIMIT_CHAT_PER_HOUR), ...chatLimits(services.limiter, config) });
  moderationRoutes(api, services.moderation, services.appeals, services.limiter, {
    perIp: config.RATE_LIMIT_REPORTS_PER_HOUR,
    perAccount: config.RATE_LIMIT_REPORTS_PER_ACCOUNT_PER_HOUR,
  });
  supportRoutes(api, services.support, services.limiter.perUser("support", config.RATE_LIMIT_SUPPORT_PER_HOUR, 3600, LIMIT_MESSAGES.hourly));
  legalRoutes(api, services.legal);
  const provenanceChecks = config.RATE_LIMIT_PROVENANCE_CHECKS_PER_HOUR;
  provenanceRoutes(
    api,
    services.provenance,
    services.limiter.middleware("provenance", (req) => (req.ip ? [{ key: `ip:${req.ip}`, limit: provenanceChecks, windowSeconds: 3600 }] : [])),
  );
  rewardsRoutes(api, services.rewards);
  notificationsRoutes(api, services.notifications, services.notificationDigests);
  adminRoutes(api, services);
}

/** The Express app, without listening (tests mount it with supertest). */
export function createApp(deps: AppDeps): { app: Express; services: Services; api: ApiRouter } {
  const { config, log } = deps;
  const services = createServices(deps);
  const app = express();
  app.set("trust proxy", config.TRUST_PROXY);
  app.set("case sensitive routing", false);
  app.disable("x-powered-by");
  // API answers are no-store, so an ETag (a hash of every body) buys nothing; static files keep theirs.
  app.set("etag", false);

  const keepRaw = (req: express.Request, _res: unknown, buf: Buffer) => {
    req.rawBody = buf;
  };
  // first, so a request's time includes everything after it
  if (config.METRICS_ENABLED) app.use(httpMetrics(services.metrics));
  app.use(
    requestLog(log),
    helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }),
    apiOnly((_req, res, next) => {
      res.setHeader("Cache-Control", "no-store");
      next();
    }),
    express.json({ limit: "1mb", verify: keepRaw }),
    express.urlencoded({ extended: false, limit: "100kb" }),
  );
  if (config.METRICS_ENABLED) serveMetrics(app, services.metrics, { token: config.METRICS_TOKEN, allow: config.METRICS_ALLOW });
  const api = new ApiRouter((req) => services.auth.resolvePrincipal(tokenOf(req)));
  app.use(api.routes);
  mountRoutes(api, services, deps);

  const openApi = api.openApiDocument();
  app.get("/api/docs", (_req, res) => {
    res.json(openApi);
  });

  app.use(apiOnly(notFoundHandler));
  app.use("/console", consoleApp(config.consoleDir));
  // a creator's home link (`/{homeLink}`, one path segment) previews as that creator when shared
  serveConsumerApp(app, config.CONSUMER_DIST_DIR, {
    publicUrl: config.publicUrl,
    previewFor: async (p) => {
      if (!/^\/[^/]+$/.test(p)) return null;
      let link: string;
      try {
        link = decodeURIComponent(p.slice(1));
      } catch {
        return null; // a malformed escape is no home link
      }
      return services.creators.shareCard(link);
    },
  });
  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return { app, services, api };
}

/** The API's paths: `/api` and `/admin/api`, whole segments, any case (as Express mounts paths). */
const API_PATH = /^\/(admin\/)?api(\/|$)/i;

/** `handler` for the API's paths only, both prefixes (one mount path cannot name both). */
const apiOnly =
  (handler: RequestHandler): RequestHandler =>
  (req, res, next) =>
    API_PATH.test(req.path) ? handler(req, res, next) : next();

function tokenOf(req: express.Request): string | undefined {
  const header = req.get("token");
  if (header) return header;
  const auth = req.get("authorization");
  return auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
}
