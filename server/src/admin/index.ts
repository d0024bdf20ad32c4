import type { ApiRouter } from "../http/api.ts";
import type { Services } from "../services.ts";
import { channelsResource } from "./channels.ts";
import { chatResources } from "./chat.ts";
import { characterModelsResource } from "./character-models.ts";
import { contentResources } from "./content.ts";
import { creatorMoneyResources, creatorPageResources } from "./creators.ts";
import { dashboardRoutes } from "./dashboard.ts";
import { operationsRoutes } from "./operations.ts";
import { enginesRoutes } from "./engines.ts";
import { ordersResource } from "./orders.ts";
import { productsResource } from "./products.ts";
import { reportsResource } from "./reports.ts";
import { screeningResource } from "./screening.ts";
import { blocklistResource } from "./blocklist.ts";
import { siteResource } from "./site.ts";
import { staffResource } from "./staff.ts";
import { supportResource } from "./support.ts";
import { legalResource } from "./legal.ts";
import { importsRoutes } from "./imports.ts";
import { tasksResource } from "./tasks.ts";
import { templatesResource } from "./templates.ts";
import { usersResource } from "./users.ts";

/** Every console endpoint under /admin/api (ra-data-simple-rest resources, actions, dashboard, me). */
export function adminRoutes(api: ApiRouter, s: Services) {
  staffResource(api, s.staff, s.audit);
  dashboardRoutes(api, s.dashboard);
  operationsRoutes(api, s.metrics);
  usersResource(api, s.usersAdmin, s.moderation, s.privacy);
  ordersResource(api, s.ordersAdmin, s.payments, s.membershipsAdmin);
  productsResource(api, s.productsAdmin);
  templatesResource(api, s.templatesAdmin);
  channelsResource(api, s.pixels);
  reportsResource(api, s.moderation, s.appeals, s.transparency, s.evidence);
  contentResources(api, s.moderation);
  creatorMoneyResources(api, s.payouts);
  creatorPageResources(api, s.creatorsAdmin);
  chatResources(api, s.chat);
  characterModelsResource(api, s.trainingAdmin, s.training);
  screeningResource(api, s.screening);
  blocklistResource(api, s.blocklist);
  tasksResource(api, s.tasksAdmin);
  enginesRoutes(api, s.engines, s.generation);
  siteResource(api, s.siteAdmin);
  supportResource(api, s.support);
  legalResource(api, s.legal);
  importsRoutes(api, s.imports);
}
