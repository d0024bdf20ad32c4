import type { ApiRouter } from "../http/api.ts";
import type { DashboardService } from "../domains/dashboard/dashboard.service.ts";
import { dashboardQuery } from "../domains/dashboard/dashboard.schema.ts";

export function dashboardRoutes(api: ApiRouter, dashboard: DashboardService) {
  api.get("/admin/api/dashboard", { summary: "Revenue, orders, generations, sign-ups per day and the report backlog", tags: ["console"], auth: "staff", can: ["read", "Dashboard"], query: dashboardQuery }, async ({ query, res }) => {
    res.json(await dashboard.summary(query.days));
    return undefined;
  });
}
