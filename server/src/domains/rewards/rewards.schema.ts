import { z } from "zod";
import { REFERRAL_REFUSALS, REFERRAL_STATUSES } from "../../contract/rewards.ts";
import { idsFilter, intFilter } from "../../http/list-filters.ts";
import { timeZone } from "../users/users.schema.ts";

/** The browser's time zone: stored on the account the first time, when it has none (docs/decisions/302). */
export const checkInQuery = z.object({ time_zone: timeZone.optional() });
export const checkInBody = z.strictObject({ time_zone: timeZone.optional() });

// What the routes answer (docs/decisions/229).

/** get /api/rewards/checkIn */
export const checkInStatusAnswer = z.object({
  enabled: z.boolean(),
  credits: z.number(),
  checked_in_today: z.boolean(),
  /** today in the account's time zone, YYYY-MM-DD */
  local_date: z.string(),
  time_zone: z.string(),
  streak: z.number(),
  month_count: z.number(),
  /** 0: no cap */
  month_cap: z.number(),
});

/** post /api/rewards/checkIn */
export const checkInAnswer = z.object({
  credits: z.number(),
  /** the balance after the gift */
  points: z.number(),
  local_date: z.string(),
  streak: z.number(),
});

/** get /api/rewards/referral */
export const referralAnswer = z.object({
  code: z.string(),
  invited: z.number(),
  rewarded: z.number(),
  inviter_credits: z.number(),
  invitee_credits: z.number(),
});

// The console's (docs/decisions/030).

export const referralFilter = z.strictObject({
  id: idsFilter,
  status: z.enum(REFERRAL_STATUSES).optional(),
  refusal: z.enum(REFERRAL_REFUSALS).optional(),
  inviterId: intFilter,
  inviteeId: intFilter,
});
export type ReferralFilter = z.infer<typeof referralFilter>;
export const referralSortable = ["id", "createdAt", "decidedAt"] as const;

export const referralRecord = z.object({
  id: z.number(),
  inviterId: z.number(),
  inviteeId: z.number(),
  status: z.enum(REFERRAL_STATUSES),
  refusal: z.string().nullable(),
  inviterCredits: z.number(),
  inviteeCredits: z.number(),
  orderId: z.number().nullable(),
  createdAt: z.date(),
  decidedAt: z.date().nullable(),
  reversedAt: z.date().nullable(),
  reversedById: z.number().nullable(),
});

/** Daily gifts taken, with where from (docs/decisions/345): by account, address, network, device cookie or fingerprint. */
export const checkInFilter = z.strictObject({
  id: idsFilter,
  userId: intFilter,
  ip: z.string().trim().max(64).optional(),
  network: z.string().trim().max(64).optional(),
  deviceId: z.string().trim().max(64).optional(),
  fingerprint: z.string().trim().max(64).optional(),
});
export type CheckInFilter = z.infer<typeof checkInFilter>;
export const checkInSortable = ["id", "createdAt", "localDate"] as const;
export const checkInRecord = z.object({
  id: z.number(),
  userId: z.number(),
  localDate: z.date(),
  credits: z.number(),
  ip: z.string().nullable(),
  network: z.string().nullable(),
  deviceIds: z.array(z.string()),
  fingerprints: z.array(z.string()),
  createdAt: z.date(),
});

/** One UTC day of gifts (reward-days list). */
export const rewardDayRecord = z.object({
  id: z.string(),
  check_ins: z.number(),
  check_in_credits: z.number(),
  referrals_paid: z.number(),
  referral_credits: z.number(),
  referrals_refused: z.number(),
  referrals_reversed: z.number(),
});
export const rewardDayFilter = z.strictObject({ days: z.coerce.number().int().min(1).max(366).optional() });
export type RewardDayFilter = z.infer<typeof rewardDayFilter>;
