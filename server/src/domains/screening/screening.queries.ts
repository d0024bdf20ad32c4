import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * The closest blocked hash within `maxBits` of `hash` (signed, as stored): multi-index lookup on the five
 * `(band, hash)` indexes, each candidate verified from the index alone, then the one best row read for its case.
 * `bands` are the values each band is searched for (the hash's band and its neighbours).
 */
export const closestBlockedHash = statement({
  columns: { id: col.int, target_type: col.text.orNull, target_id: col.int.orNull, distance: col.int },
  sql: (p: { bands: number[][]; hash: bigint; maxBits: number }) => {
    const [b0, b1, b2, b3, b4] = p.bands;
    return Prisma.sql`
      WITH candidates AS (
        SELECT hash FROM blocked_hashes WHERE band_0 = ANY(${b0}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_1 = ANY(${b1}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_2 = ANY(${b2}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_3 = ANY(${b3}::int[])
        UNION ALL SELECT hash FROM blocked_hashes WHERE band_4 = ANY(${b4}::int[])
      ), best AS (
        SELECT hash, bit_count((hash # ${p.hash}::bigint)::bit(64))::int AS distance FROM candidates
        WHERE bit_count((hash # ${p.hash}::bigint)::bit(64)) <= ${p.maxBits}
        ORDER BY distance, hash LIMIT 1
      )
      SELECT b.id, b.target_type, b.target_id, best.distance FROM best JOIN blocked_hashes b ON b.hash = best.hash`;
  },
  example: { bands: [[0], [0], [0], [0], [0]], hash: 0n, maxBits: 8 },
});
