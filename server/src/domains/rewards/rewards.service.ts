import type { RewardSettings } from "../../contract/rewards.ts";
import type { Db, Tx } from "../../db/client.ts";
import { pageOf, matching, type ListParams } from "../../db/paging.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { createCheckIns } from "./rewards.check-in.ts";
import * as q from "./rewards.queries.ts";
import { createReferrals } from "./rewards.referrals.ts";
import type { CheckInFilter, ReferralFilter, RewardDayFilter } from "./rewards.schema.ts";

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

/**
 * Daily and referral gifts (issue 32 item 4, docs/decisions/302): amounts and caps from the `rewards` site setting,
 * credits only through the ledger. One module per use case; this wires them and answers the console.
 */
export function createRewardsService(deps: {
  db: Db;
  credits: CreditsService;
  audit: AuditService;
  /** the `rewards` site setting in force (site.storedRewards) */
  settings: (c: Db | Tx) => Promise<RewardSettings>;
  timeZoneOf: (userId: number, given?: string) => Promise<string | null>;
  /** tests move the clock across a local midnight */
  clock?: () => Date;
}) {
  const clock = deps.clock ?? (() => new Date());
  const checkIns = createCheckIns({ ...deps, clock });
  const referrals = createReferrals({ ...deps, clock });
  const { db } = deps;
  /** The gifts page's figures since a UTC day (the dashboard's `sinceUtc`, UTC wall-clock text), as day series. */
  const series = (pick: (r: q.RewardDay) => number) => async (sinceUtc: string) =>
    (await q.rewardDays.rows(db, { since: new Date(`${sinceUtc}Z`) })).filter((r) => pick(r) > 0).map((r) => ({ day: r.day, count: pick(r) }));
  return {
    checkInStatus: checkIns.status,
    checkIn: checkIns.checkIn,
    referralLink: referrals.link,
    invited: referrals.invited,
    firstPaid: referrals.firstPaid,
    reverseReferral: referrals.reverse,

    listReferrals: (params: ListParams<ReferralFilter>) =>
      pageOf(db.referral, params, matching(params.filter, ["status", "refusal", "inviterId", "inviteeId"])),
    getReferral: (id: number) => db.referral.findUnique({ where: { id } }),

    /** Who got daily gifts from where: a device cookie or fingerprint matches any of a row's. */
    listCheckIns: (params: ListParams<CheckInFilter>) => {
      const { deviceId, fingerprint, ...rest } = params.filter;
      return pageOf(db.checkIn, params, {
        ...matching(rest, ["userId", "ip", "network"]),
        ...(deviceId ? { deviceIds: { has: deviceId } } : {}),
        ...(fingerprint ? { fingerprints: { has: fingerprint } } : {}),
      });
    },

    /** The dashboard's day series (docs/decisions/309), read from the same statement as the gifts page. */
    checkInsPerDay: series((r) => r.check_ins),
    referralsPerDay: series((r) => r.referrals_paid),

    /** The console's figures: per UTC day, newest first, over the last `days` days. */
    async days(params: ListParams<RewardDayFilter>) {
      const since = new Date(clock().getTime() - (params.filter.days ?? DEFAULT_DAYS) * DAY_MS);
      const rows = (await q.rewardDays.rows(db, { since })).map(({ day, ...r }) => ({ id: day, ...r }));
      return { rows: rows.slice(params.range[0], params.range[1] + 1), total: rows.length, from: params.range[0] };
    },
  };
}

export type RewardsService = ReturnType<typeof createRewardsService>;
