import { z } from "zod";

export const dashboardQuery = z.object({
  days: z.coerce
    .number({ error: "days must be 1 to 365" })
    .int()
    .min(1, { error: "days must be 1 to 365" })
    .max(365, { error: "days must be 1 to 365" })
    .default(30),
});

// What the routes answer (docs/decisions/229).

/** get /admin/api/dashboard */
export const dashboardAnswer = z.object({
  since: z.string(),
  days: z.number(),
  revenue: z.array(
    z.object({
      day: z.string(),
      provider: z.string(),
      currency: z.string(),
      amountMinor: z.number(),
      orders: z.number(),
    }),
  ),
  ordersByStatus: z.array(
    z.object({
      status: z.string(),
      count: z.number(),
    }),
  ),
  generations: z.array(
    z.object({
      day: z.string(),
      status: z.string(),
      mode: z.string(),
      count: z.number(),
    }),
  ),
  signups: z.array(
    z.object({
      day: z.string(),
      loginType: z.string(),
      count: z.number(),
    }),
  ),
  openReports: z.array(
    z.object({
      bucket: z.string(),
      reason: z.string(),
      count: z.number(),
    }),
  ),
  ageBuckets: z.array(z.string()).readonly(),
  creators: z.object({
    newPages: z.array(
      z.object({
        day: z.string(),
        count: z.number(),
      }),
    ),
    requests: z.array(
      z.object({
        day: z.string(),
        count: z.number(),
        credits: z.number(),
      }),
    ),
  }),
  /** the activity series by name, in the registry's order (server/src/dashboard-activity.ts, docs/decisions/309) */
  activitySeries: z.array(z.string()),
  activity: z.array(
    z.object({
      series: z.string(),
      day: z.string(),
      count: z.number(),
    }),
  ),
});
