import { Prisma } from "../../db/generated/client.ts";
import { col, statement } from "../../db/statement.ts";

/** The template's preview lock for this transaction: false when another process is rendering that preview now. */
export const lockPreview = statement({
  columns: { locked: col.bool },
  sql: (p: { templateId: number }) => Prisma.sql`SELECT pg_try_advisory_xact_lock(hashtext('template-preview'), ${p.templateId}) AS locked`,
  example: { templateId: 1 },
});
