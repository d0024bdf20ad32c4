import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * The output fingerprint nearest `hash` (signed, as stored) within `maxBits`: rows sharing one band value with the
 * hash or its neighbours (`bands`, docs/decisions/142) are the candidates, gathered by a bitmap OR over the five
 * `(band, hash)` indexes, and the nearest is answered with its engine and time, nothing about who made it.
 */
export const nearestOutputFingerprint = statement({
  columns: { engine: col.text, made_at: col.time, distance: col.int },
  sql: (p: { bands: number[][]; hash: bigint; maxBits: number }) => {
    const [b0, b1, b2, b3, b4] = p.bands;
    return Prisma.sql`
      SELECT engine, made_at, distance FROM (
        SELECT engine, made_at, bit_count((hash # ${p.hash}::bigint)::bit(64))::int AS distance FROM output_fingerprints
        WHERE band_0 = ANY(${b0}::int[]) OR band_1 = ANY(${b1}::int[]) OR band_2 = ANY(${b2}::int[])
          OR band_3 = ANY(${b3}::int[]) OR band_4 = ANY(${b4}::int[])
      ) near WHERE distance <= ${p.maxBits}
      ORDER BY distance, made_at LIMIT 1`;
  },
  example: { bands: [[0], [0], [0], [0], [0]], hash: 0n, maxBits: 8 },
});
