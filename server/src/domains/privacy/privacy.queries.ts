import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * A person's export requests queue here, so two at once cannot both pass the once-a-day check (issue 47 item 6): the
 * second one reads the first, committed.
 */
export const lockExportRequests = statement({
  columns: { locked: col.int },
  sql: (p: { userId: number }) => Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`data-export:${p.userId}`}, 0))`,
  example: { userId: 1 },
});
