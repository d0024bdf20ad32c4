import { z } from "zod";

export const dashboardQuery = z.object({
  days: z.coerce.number({ error: "days must be 1 to 365" }).int().min(1, { error: "days must be 1 to 365" }).max(365, { error: "days must be 1 to 365" }).default(30),
});
