import type pg from "pg";
import type { Account } from "../../authz/principal.ts";
import { Prisma } from "../../db/generated/client.ts";
import { col, statement, type Column, type RowOf } from "../../db/statement.ts";
import { accountColumns } from "../users/users.queries.ts";

/** A login as the session lookup reads it: the session, and its user's or staff member's columns. */
export interface SessionRow {
  id: number;
  revoked: boolean;
  expires_ms: number;
  last_seen_ms: number;
  user_id: number | null;
  banned: boolean | null;
  merged_into_id: number | null;
  staff_id: number | null;
  username: string | null;
  staff_roles: string[] | null;
  staff_active: boolean | null;
}

/** row_to_json of the lookup's inner SELECT: its keys are that SELECT's columns, the session's and the account's. */
const loginJson = col.json as Column<SessionRow & Account>;

/**
 * Logins by token hash. One JSON column rather than 25: the driver's per-column work on every answer measured as a
 * visible share of an authenticated call (docs/decisions/007). Prisma keeps DateTime as UTC in "timestamp without
 * time zone"; the epoch of such a value reads it as UTC too.
 */
export const sessionsByHash = statement({
  columns: { hash: col.text, session: loginJson },
  sql: (p: { hashes: string[] }) => Prisma.sql`SELECT x.token_hash AS hash, row_to_json(x) AS session FROM (
               SELECT s.token_hash, s.id, s.revoked_at IS NOT NULL AS revoked,
                      (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_ms,
                      (extract(epoch FROM s.last_seen_at) * 1000)::float8 AS last_seen_ms,
                      u.id AS user_id, u.banned_at IS NOT NULL AS banned, u.merged_into_id,
                      st.id AS staff_id, st.username, st.roles::text[] AS staff_roles, st.active AS staff_active,
                      ${accountColumns}
                 FROM sessions s
                 LEFT JOIN users u ON u.id = s.user_id
                 LEFT JOIN staff st ON st.id = s.staff_id
                WHERE s.token_hash = ANY(${p.hashes}::text[])) x`,
  example: { hashes: ["hash"] },
});

/** `sessionsByHash` as a named statement: parsed and planned once per connection, not on every request. */
export async function readSessionsByHash(pool: pg.Pool, hashes: string[]): Promise<RowOf<typeof sessionsByHash.columns>[]> {
  const q = sessionsByHash.sql({ hashes });
  return (await pool.query<RowOf<typeof sessionsByHash.columns>>({ name: "session-lookup", text: q.text, values: q.values })).rows;
}

/** Requests for one email's code queue here, so two at once cannot both pass the cooldown check (docs/decisions/008). */
export const lockEmailCodes = statement({
  columns: { locked: col.int },
  sql: (p: { email: string }) => Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`email-code:${p.email}`}, 0))`,
  example: { email: "person@example.com" },
});
