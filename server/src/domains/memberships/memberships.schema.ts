import { z } from "zod";
import { CREATOR_MEMBERSHIP_STATUSES } from "../../contract/creators.ts";

// What the routes answer (docs/decisions/229).

/** get /api/membership/current */
export const currentAnswer = z.object({
  membership: z
    .object({
      membership_id: z.number(),
      status: z.enum(CREATOR_MEMBERSHIP_STATUSES),
      provider: z.string(),
      product_name: z.string().optional(),
      credits_per_period: z.number(),
      periods_paid: z.number(),
      next_renewal_at: z.date().nullable(),
      ends_at: z.date().nullable(),
    })
    .nullable(),
});

/** post /api/membership/cancel */
export const cancelAnswer = z.object({
  membership: z.object({
    membership_id: z.number(),
    status: z.enum(CREATOR_MEMBERSHIP_STATUSES),
    provider: z.string(),
    product_name: z.string().optional(),
    credits_per_period: z.number(),
    periods_paid: z.number(),
    next_renewal_at: z.date().nullable(),
    ends_at: z.date().nullable(),
  }),
});
