/** One page request as the console sends it (ra-data-simple-rest): sort field and order, inclusive row range, filter. */
export interface ListParams<F = Record<string, unknown>> {
  sort: { field: string; order: "asc" | "desc" };
  /** Inclusive, zero-based, as in `range=[0,24]`. */
  range: [number, number];
  filter: F;
}

export interface Page<R> {
  rows: R[];
  total: number;
  /** Index of the first row returned (inclusive). */
  from: number;
}

/** The part of a Prisma model delegate a page needs. */
export interface PageableTable<R> {
  findMany(args: any): Promise<R[]>;
  count(args: any): Promise<number>;
}

/** One page and the total under the same filter, with an `orderBy` that ends on `id` so pages never overlap. */
export async function pageOf<R>(table: PageableTable<R>, params: ListParams<unknown>, where: object, extra: object = {}): Promise<Page<R>> {
  const [from, to] = params.range;
  const orderBy = [{ [params.sort.field]: params.sort.order }, ...(params.sort.field === "id" ? [] : [{ id: "asc" }])];
  const [rows, total] = await Promise.all([table.findMany({ where, orderBy, skip: from, take: to - from + 1, ...extra }), table.count({ where })]);
  return { rows, total, from };
}

/**
 * The plain part of a console filter as a Prisma `where`: `id: [..]` (react-admin's getMany) becomes `id IN`,
 * each field named in `equal` that is set must equal its value, and `<field>_gte` / `<field>_lte` bound that field.
 * Searches and other special cases are added by each service.
 */
export function matching(filter: object, equal: readonly string[] = []): Record<string, unknown> {
  const f = filter as Record<string, unknown>;
  const where: Record<string, unknown> = {};
  if (Array.isArray(f.id)) where.id = { in: f.id };
  for (const key of equal) if (f[key] !== undefined) where[key] = f[key];
  for (const [key, value] of Object.entries(f)) {
    const bound = /^(\w+)_(gte|lte)$/.exec(key);
    if (bound && value !== undefined) where[bound[1]] = { ...(where[bound[1]] as object), [bound[2]]: value };
  }
  return where;
}
