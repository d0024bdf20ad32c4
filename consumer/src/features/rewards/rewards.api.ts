import { api, type ApiData } from "../../lib/api-client.ts";

/** The daily gift, the invitation link and the credit history (docs/decisions/302). */
export type CheckInStatus = ApiData<"/api/rewards/checkIn", "get">;
export type ReferralLink = ApiData<"/api/rewards/referral", "get">;
export type CreditMovement = ApiData<"/api/Personal/creditHistory", "get">["list"][number];

/** SPEC.md §9 page size. */
export const HISTORY_PAGE_SIZE = 20;

/** The browser's time zone: the account keeps the first one it is told, and counts its days in it. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export function checkInStatus(): Promise<CheckInStatus> {
  const timeZone = browserTimeZone();
  return api.get("/api/rewards/checkIn", { query: timeZone ? { time_zone: timeZone } : {}, quiet: true });
}

export function checkIn(): Promise<ApiData<"/api/rewards/checkIn", "post">> {
  const timeZone = browserTimeZone();
  return api.post("/api/rewards/checkIn", timeZone ? { time_zone: timeZone } : {}, { quiet: true });
}

export function referralLink(): Promise<ReferralLink> {
  return api.get("/api/rewards/referral", { quiet: true });
}

export function creditHistory(page: number): Promise<ApiData<"/api/Personal/creditHistory", "get">> {
  return api.get("/api/Personal/creditHistory", { query: { page, limit: HISTORY_PAGE_SIZE }, quiet: true });
}

export async function setTimeZone(timeZone: string): Promise<void> {
  await api.post("/api/Personal/user_update", { time_zone: timeZone }, { quiet: true });
}

/** The zones the browser knows, for the account's setting; the current one first when the list lacks it. */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return known.includes(current) ? known : [current, ...known];
}

/** The link that invites: any page of the app with `?ref=CODE`; /home is where a newcomer starts. */
export function inviteUrl(code: string): string {
  return `${window.location.origin}/home?ref=${encodeURIComponent(code)}`;
}
