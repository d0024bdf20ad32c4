import { createAuthService } from "./domains/auth/auth.service.ts";
import { createMailer } from "./domains/auth/mailer.ts";
import { createOrdersService } from "./domains/orders/orders.service.ts";
import { createPaymentsService } from "./domains/payments/payments.service.ts";
import { createPaypalProvider } from "./domains/payments/providers/paypal.provider.ts";
import { createSandboxProvider } from "./domains/payments/providers/sandbox.provider.ts";
import { createStripeProvider } from "./domains/payments/providers/stripe.provider.ts";
import { createProductsService } from "./domains/products/products.service.ts";
import { createStaffService } from "./domains/staff/staff.service.ts";
import { createUsersService } from "./domains/users/users.service.ts";
import { createDashboardService } from "./domains/dashboard/dashboard.service.ts";
import { createTasksAdminService } from "./domains/generation/tasks.admin.service.ts";
import { createModerationService } from "./domains/moderation/moderation.service.ts";
import { createOrdersAdminService } from "./domains/orders/orders.admin.service.ts";
import { createPixelsService } from "./domains/pixels/pixels.service.ts";
import { createSiteService } from "./domains/site/site.service.ts";
import { createSiteAdminService } from "./domains/site/site.admin.service.ts";
import { createTemplatesAdminService } from "./domains/templates/templates.admin.service.ts";
import { createUsersAdminService } from "./domains/users/users.admin.service.ts";
import { createSandboxGateway } from "./domains/payments/sandbox/sandbox-gateway.ts";
import { createTrainingAdminService } from "./domains/training/training.admin.service.ts";
import { createRenderServices, type AppDeps } from "./render-services.ts";

/** Every service of the API process, wired once; the generation worker builds only createRenderServices. */
export function createServices(deps: AppDeps) {
  const { db, config, log } = deps;
  const render = createRenderServices(deps);
  const { limiter, audit, credits, storage } = render;
  const mailer = createMailer(db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log, printToLog: config.NODE_ENV === "development" });
  const users = createUsersService(db);
  const staff = createStaffService(db, audit);
  const products = createProductsService(db);
  const orders = createOrdersService({ db, config, credits, products, log, audit });
  const auth = createAuthService({ db, config, credits, mailer, limiter, log, guestRowOwners: [render.uploads.moveToUser, render.generation.moveToUser, orders.moveToUser] });
  const sandboxGateway = createSandboxGateway({ db, config, log });
  const providers = { sandbox: createSandboxProvider(config, sandboxGateway), stripe: createStripeProvider(config, log), paypal: createPaypalProvider(config, log) };
  const payments = createPaymentsService({ config, log, orders, providers });
  const site = createSiteService(db, storage);
  const consoleServices = {
    audit,
    moderation: createModerationService({ db, audit, revokeUserSessions: auth.revokeUserSessions, owned: { task: render.generation.moderated, upload: render.uploads.moderated }, cancelUserTasks: render.generation.cancelForAccount }),
    pixels: createPixelsService(db, audit),
    usersAdmin: createUsersAdminService({ db, audit, credits }),
    ordersAdmin: createOrdersAdminService(db),
    tasksAdmin: createTasksAdminService(db),
    templatesAdmin: createTemplatesAdminService(db, audit, storage),
    siteAdmin: createSiteAdminService(db, audit),
    dashboard: createDashboardService(db),
    trainingAdmin: createTrainingAdminService(db, storage),
  };
  return { ...render, mailer, auth, users, staff, products, orders, sandboxGateway, payments, site, ...consoleServices };
}

export type Services = ReturnType<typeof createServices>;

