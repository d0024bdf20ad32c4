import type { ApiRouter } from "../http/api.ts";
import type { DashboardService } from "../domains/dashboard/dashboard.service.ts";
import { dashboardAnswer, dashboardQuery } from "../domains/dashboard/dashboard.schema.ts";

export function dashboardRoutes(api: ApiRouter, dashboard: DashboardService) {
  api.get(
    "/admin/api/dashboard",
    {
      summary: "Revenue, orders, generations, sign-ups per day and the report backlog",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Dashboard"],
      query: dashboardQuery,
      response: { kind: "plain", schema: dashboardAnswer, description: "The figures" },
    },
    ({ query }) => dashboard.summary(query.days),
  );
}
