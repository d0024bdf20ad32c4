import type { ApiRouter } from "../http/api.ts";
import type { Metrics } from "../metrics/metrics.ts";
import { operationsAnswer } from "../metrics/metrics.schema.ts";

/** The figures `/metrics` serves, as JSON for staff who run no Prometheus (the console's operations page). */
export function operationsRoutes(api: ApiRouter, metrics: Metrics) {
  api.get(
    "/admin/api/operations",
    {
      summary:
        "Every operations figure /metrics serves (requests by route and status, queue, jobs, engines, chat, payment notifications, ledger, outbox), as plain values read now, and the request rates of the last ten minutes",
      tags: ["console"],
      auth: "staff",
      can: ["read", "Operations"],
      response: { kind: "plain", schema: operationsAnswer, description: "The figures and when they were read" },
    },
    async () => ({ at: new Date().toISOString(), series: await metrics.snapshot(), recent: metrics.http.recent() }),
  );
}
