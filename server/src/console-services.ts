import { createMembershipsAdminService } from "./domains/memberships/memberships.admin.ts";
import { createProductsAdminService } from "./domains/products/products.admin.service.ts";
import { createDashboard } from "./dashboard-activity.ts";
import { createTasksAdminService } from "./domains/generation/tasks.admin.service.ts";
import { createAppealsService } from "./domains/moderation/appeals.service.ts";
import { createTransparencyService } from "./domains/moderation/transparency.service.ts";
import { createCreatorsAdminService } from "./domains/creators/creators.admin.service.ts";
import { createOrdersAdminService } from "./domains/orders/orders.admin.service.ts";
import { createPixelsService } from "./domains/pixels/pixels.service.ts";
import { createImportsService } from "./domains/imports/imports.service.ts";
import { createSiteAdminService } from "./domains/site/site.admin.service.ts";
import { createTemplatesAdminService } from "./domains/templates/templates.admin.service.ts";
import { createUsersAdminService } from "./domains/users/users.admin.service.ts";
import { createTrainingAdminService } from "./domains/training/training.admin.service.ts";
import type { createEvidenceService } from "./domains/moderation/evidence.ts";
import type { createModerationService } from "./domains/moderation/moderation.service.ts";
import type { createChannelSecrets } from "./domains/pixels/channel-secrets.ts";
import type { createRewardsService } from "./domains/rewards/rewards.service.ts";
import type { AppDeps, createRenderServices } from "./render-services.ts";

interface ConsoleDeps {
  render: ReturnType<typeof createRenderServices>;
  channelSecrets: ReturnType<typeof createChannelSecrets>;
  moderation: ReturnType<typeof createModerationService>;
  evidence: ReturnType<typeof createEvidenceService>;
  rewards: ReturnType<typeof createRewardsService>;
  messages: Parameters<typeof createDashboard>[1]["messages"];
}

/**
 * The console's own services (staff reads and edits across domains), wired from the API process's services:
 * createServices hands over those the console shares with the app.
 */
export function createConsoleServices(deps: AppDeps, o: ConsoleDeps) {
  const { db, config } = deps;
  const { render, channelSecrets, moderation, evidence, rewards, messages } = o;
  const { audit, credits, storage } = render;
  const pixels = createPixelsService(db, audit, channelSecrets, { scriptBaseUrl: config.PIXEL_SCRIPT_BASE_URL });
  const usersAdmin = createUsersAdminService({ db, audit, credits });
  const productsAdmin = createProductsAdminService(db, audit);
  return {
    audit,
    moderation,
    appeals: createAppealsService({ db, audit, moderation }),
    evidence,
    transparency: createTransparencyService(db),
    pixels,
    usersAdmin,
    imports: createImportsService({ db, audit, log: deps.log, pixels, credits, users: usersAdmin, products: productsAdmin }),
    ordersAdmin: createOrdersAdminService(db),
    membershipsAdmin: createMembershipsAdminService(db),
    tasksAdmin: createTasksAdminService(db, render.templates),
    productsAdmin,
    templatesAdmin: createTemplatesAdminService(db, audit, storage, render.engines),
    siteAdmin: createSiteAdminService(db, audit, storage),
    dashboard: createDashboard(db, { generation: render.generation, rewards, messages }),
    trainingAdmin: createTrainingAdminService(db, storage),
    creatorsAdmin: createCreatorsAdminService({ db, previews: render.generation.previewsOf, storage }),
  };
}
