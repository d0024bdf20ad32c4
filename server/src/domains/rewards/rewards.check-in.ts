import { REWARD_MESSAGES, REWARD_REASONS, type RewardSettings } from "../../contract/rewards.ts";
import type { Db, Tx } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import * as q from "./rewards.queries.ts";

/** The zone counted in when an account has none and the browser named none. */
const FALLBACK_ZONE = "UTC";
const DAY_MS = 86_400_000;

/** The calendar date (YYYY-MM-DD) it is at `at` in `timeZone`. */
export function localDate(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** `date` (YYYY-MM-DD) moved by `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Consecutive days checked in, ending today (or yesterday, while today's gift is still to take). */
export function streakOf(dates: readonly string[], today: string): number {
  const taken = new Set(dates);
  let day = taken.has(today) ? today : addDays(today, -1);
  let n = 0;
  while (taken.has(day)) {
    n++;
    day = addDays(day, -1);
  }
  return n;
}

export interface CheckInDeps {
  db: Db;
  credits: CreditsService;
  settings: (c: Db | Tx) => Promise<RewardSettings>;
  /** The account's zone, stored from `given` (the browser's) when it has none yet (users.timeZoneOf). */
  timeZoneOf: (userId: number, given?: string) => Promise<string | null>;
  clock: () => Date;
}

/**
 * The daily gift (docs/decisions/302): one per account per date of the account's own time zone. The check_ins row
 * (unique per account and date) is the gate, the ledger grant keyed by the same account and date moves the credits, in
 * one transaction: twenty taps at once give one gift.
 */
export function createCheckIns(deps: CheckInDeps) {
  const { db, credits, settings, timeZoneOf, clock } = deps;

  async function today(userId: number, given?: string) {
    const timeZone = (await timeZoneOf(userId, given)) ?? FALLBACK_ZONE;
    const date = localDate(clock(), timeZone);
    // a cap is at most 31: two months back covers the month so far and any streak worth showing in full
    const dates = (await q.checkInDates.rows(db, { userId, since: addDays(date, -62) })).map((r) => r.date);
    const monthStart = `${date.slice(0, 8)}01`;
    return { timeZone, date, monthStart, dates, monthCount: dates.filter((d) => d >= monthStart).length };
  }

  return {
    /** What the check-in card shows: whether today's gift is taken, how much it is, the streak and the month's count. */
    async status(userId: number, given?: string) {
      const [s, t] = await Promise.all([settings(db), today(userId, given)]);
      return {
        enabled: s.checkInCredits > 0,
        credits: s.checkInCredits,
        checked_in_today: t.dates.includes(t.date),
        local_date: t.date,
        time_zone: t.timeZone,
        streak: streakOf(t.dates, t.date),
        month_count: t.monthCount,
        month_cap: s.checkInMonthlyCap,
      };
    },

    /** Takes today's gift; 409 when it was taken today, the month's are all taken, or the gift is off. */
    async checkIn(userId: number, given?: string) {
      const s = await settings(db);
      if (s.checkInCredits <= 0) throw HttpError.conflict(REWARD_MESSAGES.checkInOff);
      const t = await today(userId, given);
      const balance = await db.$transaction(async (tx) => {
        const claimed = await q.claimCheckIn.first(tx, {
          userId,
          localDate: t.date,
          monthStart: t.monthStart,
          credits: s.checkInCredits,
          cap: s.checkInMonthlyCap,
        });
        if (!claimed) return null;
        const key = `check-in:${userId}:${t.date}`;
        return (await credits.grant({ userId, amount: s.checkInCredits, reason: REWARD_REASONS.checkIn, reference: key, idempotencyKey: key }, tx)).balance;
      });
      if (balance === null) {
        const takenToday = (await q.checkInDates.rows(db, { userId, since: t.date })).length > 0;
        throw HttpError.conflict(takenToday ? REWARD_MESSAGES.checkedIn : REWARD_MESSAGES.monthlyCap);
      }
      return { credits: s.checkInCredits, points: balance, local_date: t.date, streak: streakOf([t.date, ...t.dates], t.date) };
    },
  };
}

export type CheckIns = ReturnType<typeof createCheckIns>;
