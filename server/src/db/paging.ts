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

/** `{ gte, lte }` from the console's `<field>_gte` / `<field>_lte` date filters, or undefined when neither is set. */
export function dateRange(gte?: Date, lte?: Date): { gte?: Date; lte?: Date } | undefined {
  if (!gte && !lte) return undefined;
  return { ...(gte ? { gte } : {}), ...(lte ? { lte } : {}) };
}
