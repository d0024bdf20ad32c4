/**
 * A row as PostgreSQL returns it to `$queryRaw` (`SELECT *`, `RETURNING *`: snake_case columns) with the field names
 * of Prisma's model (camelCase), for the hot paths that read and write with raw SQL but hand on Prisma's types. The
 * caller names the model; columns and fields are paired by name only, so a column Prisma maps to another name, or an
 * enum stored under another label, is the caller's to fix up.
 */
export function modelOfRow<T>(row: Record<string, unknown>): T {
  const model: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) model[column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = value;
  return model as T;
}
