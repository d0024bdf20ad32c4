import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/**
 * Spreadsheet imports of products queue here, one at a time: each reads the catalogue (is the code known, is a sale
 * still a deal) before it writes, and two at once would both see the old catalogue and write the same file twice.
 */
export const lockCatalogueImport = statement({
  columns: { locked: col.int },
  sql: () => Prisma.sql`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('products-import', 0))`,
  example: {},
});
