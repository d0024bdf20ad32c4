import { z } from "zod";
import { REWARD_DEFAULTS, REWARD_MAX_CREDITS, REWARDS_SETTING, type RewardSettings } from "../../contract/rewards.ts";
import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { storedSetting } from "./site.settings.ts";

const AMOUNT = `Each amount is a whole number from 0 to ${REWARD_MAX_CREDITS}`;
const amount = z.number({ error: AMOUNT }).int({ error: AMOUNT }).min(0, { error: AMOUNT }).max(REWARD_MAX_CREDITS, { error: AMOUNT });

/** The `rewards` setting as staff may write it: every field optional (0, off, fills it), nothing else. */
const rewardsValue = z.strictObject({
  checkInCredits: amount.optional(),
  checkInMonthlyCap: amount.max(31, { error: "The monthly cap is at most 31 check-ins" }).optional(),
  checkInMinAccountHours: amount.max(24 * 90, { error: "The account age is at most 2160 hours (90 days)" }).optional(),
  checkInNetworkDailyCap: amount.optional(),
  referralInviterCredits: amount.optional(),
  referralInviteeCredits: amount.optional(),
  referralMonthlyCap: amount.optional(),
});

/** The gifts a setting value stands for, defaults filled in, or a 400 naming the first thing wrong. */
export function checkedRewards(value: unknown): RewardSettings {
  const parsed = rewardsValue.safeParse(value);
  if (!parsed.success) throw HttpError.badRequest(parsed.error.issues[0].message);
  return { ...REWARD_DEFAULTS, ...parsed.data };
}

/** The gifts in force (read inside a referral's transaction too); a stored value that no longer passes counts as off. */
export const storedRewards = (c: Db | Tx): Promise<RewardSettings> => storedSetting(c, REWARDS_SETTING, checkedRewards, REWARD_DEFAULTS);
