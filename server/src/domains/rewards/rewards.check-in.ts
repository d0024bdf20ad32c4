import { REWARD_MESSAGES, REWARD_REASONS, type RewardSettings } from "../../contract/rewards.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Device } from "../../http/client-context.ts";
import { networkOf } from "../../http/client-context.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import * as q from "./rewards.queries.ts";

/** The zone counted in when an account has none and the browser named none. */
const FALLBACK_ZONE = "UTC";
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Where a check-in is asked from: the request's address and browser. */
export interface CheckInClient {
  ip?: string;
  device: Device;
}

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
 * one transaction: twenty taps at once give one gift. Against farming with many accounts (docs/decisions/345): an
 * account waits `checkInMinAccountHours` for its first, and in any 24 hours one device (cookie or fingerprint, the
 * request's or any of the account's sign-ins') or address takes one gift, a network `checkInNetworkDailyCap`.
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

    /**
     * Takes today's gift; 409 when it was taken today, the month's are all taken, the gift is off, the account is too
     * new, or another account took one on this device or address, or the network's are taken, in the last 24 hours.
     */
    async checkIn(userId: number, given: string | undefined, client: CheckInClient) {
      const [s, { createdAt }, t] = await Promise.all([
        settings(db),
        db.user.findUniqueOrThrow({ where: { id: userId }, select: { createdAt: true } }),
        today(userId, given),
      ]);
      if (s.checkInCredits <= 0) throw HttpError.conflict(REWARD_MESSAGES.checkInOff);
      // a second tap today: no locks, no neighbours, no insert (the claim below stays the guarantee under a race)
      if (t.dates.includes(t.date)) throw HttpError.conflict(REWARD_MESSAGES.checkedIn);
      const now = clock();
      if (s.checkInMinAccountHours > 0 && now.getTime() - createdAt.getTime() < s.checkInMinAccountHours * HOUR_MS)
        throw HttpError.conflict(REWARD_MESSAGES.accountTooNew);
      const signed = await q.accountDevices.first(db, { userId });
      const where = {
        ip: client.ip ?? null,
        network: networkOf(client.ip),
        deviceIds: [...new Set([client.device.id, ...(signed?.device_ids ?? [])].filter((v): v is string => !!v))],
        fingerprints: [...new Set([client.device.fingerprint, ...(signed?.fingerprints ?? [])].filter((v): v is string => !!v))],
      };
      const balance = await db.$transaction(async (tx) => {
        const keys = [
          ...where.deviceIds.map((d) => `device:${d}`),
          ...where.fingerprints.map((f) => `fingerprint:${f}`),
          ...(where.network ? [`network:${where.network}`] : []),
        ];
        await q.lockCheckInSignals.first(tx, { keys });
        const seen = await q.checkInNeighbours.first(tx, { userId, since: new Date(now.getTime() - DAY_MS), ...where });
        const networkFull = s.checkInNetworkDailyCap > 0 && (seen?.network_gifts ?? 0) >= s.checkInNetworkDailyCap;
        if (seen?.shared || networkFull) throw HttpError.conflict(REWARD_MESSAGES.deviceTaken);
        const claimed = await q.claimCheckIn.first(tx, {
          userId,
          localDate: t.date,
          monthStart: t.monthStart,
          credits: s.checkInCredits,
          cap: s.checkInMonthlyCap,
          ...where,
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
