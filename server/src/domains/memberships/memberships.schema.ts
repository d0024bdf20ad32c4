import { z } from "zod";
import { MEMBERSHIP_STATUSES } from "../../contract/memberships.ts";

// What the routes answer (docs/decisions/229). A Reverie plan's statuses, not a creator membership's (decision 258).

/** A member's plan as they see it (`membershipView`). */
const membership = z.object({
  membership_id: z.number(),
  status: z.enum(MEMBERSHIP_STATUSES),
  provider: z.string(),
  order_id: z.number(),
  product_name: z.string().optional(),
  price_text: z.string().optional(),
  interval_days: z.number().optional(),
  credits_per_period: z.number(),
  periods_paid: z.number(),
  next_renewal_at: z.date().nullable(),
  ends_at: z.date().nullable(),
});

/** get /api/membership/current: with what its provider lets the member do now. */
export const currentAnswer = z.object({
  membership: membership
    .extend({
      can_cancel: z.boolean(),
      can_resume: z.boolean(),
      /** the provider's own page of the subscription, where it has one (the sandbox's test page) */
      provider_page: z.string().nullable(),
    })
    .nullable(),
});

/** post /api/membership/cancel and /api/membership/resume */
export const changeAnswer = z.object({ membership });
