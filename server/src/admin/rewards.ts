import { z } from "zod";
import type { ApiRouter } from "../http/api.ts";
import type { RewardsService } from "../domains/rewards/rewards.service.ts";
import {
  checkInFilter,
  checkInRecord,
  checkInSortable,
  referralFilter,
  referralRecord,
  referralSortable,
  rewardDayFilter,
  rewardDayRecord,
} from "../domains/rewards/rewards.schema.ts";
import { AdminResource, reasonBody } from "./resource.ts";

/** Invitations and what they gave or why not; support reverses a fraudulent one (docs/decisions/302). Figures per day beside them. */
export function rewardsResources(api: ApiRouter, rewards: RewardsService) {
  const referrals = new AdminResource(api, "referrals", "Referral");
  referrals.list({ filter: referralFilter, sortable: referralSortable, defaultSort: ["id", "desc"], row: referralRecord }, (p) => rewards.listReferrals(p));
  referrals.get(referralRecord, (id) => rewards.getReferral(id));
  referrals.action(
    "reverse",
    {
      summary: "Take back a rewarded referral's gifts from both sides (as much as each balance holds), audited with the reason",
      can: ["update", "Referral"],
      body: reasonBody,
      response: referralRecord,
    },
    async (id, body, staff) => {
      await rewards.reverseReferral(staff.staffId, id, body.reason);
      return rewards.getReferral(id);
    },
  );

  // who got daily gifts from where (docs/decisions/345): read by whoever reads referrals
  const checkIns = new AdminResource(api, "check-ins", "Referral");
  checkIns.list({ filter: checkInFilter, sortable: checkInSortable, defaultSort: ["id", "desc"], row: checkInRecord }, (p) => rewards.listCheckIns(p));

  const days = new AdminResource(api, "reward-days", "Referral", z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "id must be a date" }));
  days.list({ filter: rewardDayFilter, sortable: ["id"], defaultSort: ["id", "desc"], row: rewardDayRecord }, (p) => rewards.days(p));
}
