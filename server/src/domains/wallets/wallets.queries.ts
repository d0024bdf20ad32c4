import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/** Spends a TON proof payload: ours, this user's, unused and unexpired, or nothing happens (no row). */
export const spendProofPayload = statement({
  columns: { id: col.int },
  sql: (p: { payload: string; userId: number }) => Prisma.sql`
    UPDATE wallet_proof_payloads SET used_at = now()
    WHERE payload = ${p.payload} AND user_id = ${p.userId} AND used_at IS NULL AND expires_at > now()
    RETURNING id`,
  example: { payload: "payload", userId: 1 },
});
