/**
 * The per-account events the one event stream carries beside task progress (`GET /api/Generation/progress`,
 * docs/decisions/311). Any domain may publish one to an account, in its own transaction; the stream sends it as an
 * SSE event of that name. Import-free (docs/decisions/050).
 */
export const ACCOUNT_EVENT_TYPES = [
  /** a message reached one of the account's threads, or one of its messages changed (unlocked, taken down) */
  "message",
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** What one event carries: small, since PostgreSQL's NOTIFY payload is at most 8000 bytes; the client reads the rest. */
export interface AccountEvent {
  userId: number;
  type: AccountEventType;
  data: Record<string, string | number | boolean | null>;
}
