import { queryRows, type SqlRunner } from "./client.ts";
import { Prisma } from "./generated/client.ts";

/**
 * A kind of value a statement may return: one that Prisma's `$queryRaw` and pg (`queryRows`) read into the same
 * JavaScript value, so a statement's rows have one type wherever it runs. int8 and numeric are not among them (pg reads
 * them as strings, Prisma as bigint and Decimal): a statement casts a count or a sum to int (docs/decisions/230).
 */
export interface Column<T> {
  /** PostgreSQL type names (pg_type.typname) this kind accepts; `enum` stands for any enum type. */
  readonly types: readonly string[];
  readonly nullable: boolean;
  /** Type-level only: what the column reads as. */
  readonly _value?: T;
}

function kind<T>(...types: string[]): Column<T> & { readonly orNull: Column<T | null> } {
  return { types, nullable: false, orNull: { types, nullable: true } };
}

/** The kinds a statement's columns are declared with. `.orNull` where the column may be NULL. */
export const col = {
  int: kind<number>("int2", "int4"),
  float: kind<number>("float4", "float8"),
  text: kind<string>("text", "varchar", "bpchar", "name", "enum"),
  bool: kind<boolean>("bool"),
  /** timestamp (UTC, as Prisma stores DateTime) or timestamptz */
  time: kind<Date>("timestamp", "timestamptz"),
  json: kind<unknown>("json", "jsonb"),
  ints: kind<number[]>("_int2", "_int4"),
  texts: kind<string[]>("_text", "_varchar"),
};

type Columns = Record<string, Column<unknown>>;
export type RowOf<C extends Columns> = { -readonly [K in keyof C]: C[K] extends Column<infer T> ? T : never };

export interface StatementDef<P, C extends Columns> {
  /** The columns the statement returns, in order: `{}` for one that returns none. */
  columns: C;
  /** The SQL, values always bound through `Prisma.sql`. */
  sql: (params: P) => Prisma.Sql;
  /**
   * Parameters the schema test runs the statement with (in a transaction rolled back afterwards, with foreign keys and
   * triggers off), or a function that first writes the rows it needs through the runner and returns them.
   */
  example: NoInfer<P> | ((run: SqlRunner) => Promise<NoInfer<P>>);
}

export interface Statement<P, C extends Columns> extends StatementDef<P, C> {
  /** The rows, typed from `columns`. */
  rows(runner: SqlRunner, params: P): Promise<RowOf<C>[]>;
  /** The first row, or undefined. */
  first(runner: SqlRunner, params: P): Promise<RowOf<C> | undefined>;
}

/**
 * A raw statement of a domain, declared in its `<domain>.queries.ts` with the columns it returns; a test runs each one
 * against the migrated schema and checks those columns (tests/api/queries.test.ts).
 */
export function statement<P, C extends Columns>(def: StatementDef<P, C>): Statement<P, C> {
  return {
    ...def,
    rows: (runner, params) => queryRows<RowOf<C>>(runner, def.sql(params)),
    first: async (runner, params) => (await queryRows<RowOf<C>>(runner, def.sql(params)))[0],
  };
}

export function isStatement(value: unknown): value is Statement<unknown, Columns> {
  const v = value as Partial<Statement<unknown, Columns>> | null;
  return typeof v === "object" && v !== null && typeof v.sql === "function" && typeof v.rows === "function" && typeof v.columns === "object";
}

/**
 * How many rows of `table` (matching `where`, a fixed SQL condition) were made per UTC day since `sinceUtc` (UTC
 * wall-clock text, as the TIMESTAMP columns hold): the console dashboard's day series (docs/decisions/309). A domain
 * declares one in its queries file for its own table, so a new series is one line there.
 */
export function countsPerDay(table: string, where: Prisma.Sql = Prisma.sql`TRUE`, column = "created_at") {
  const at = Prisma.raw(`"${column}"`);
  return statement({
    columns: { day: col.text, count: col.int },
    sql: (p: { sinceUtc: string }) => Prisma.sql`
      SELECT to_char(d, 'YYYY-MM-DD') AS day, n::int AS count
      FROM (SELECT date_trunc('day', ${at}) AS d, count(*) AS n FROM ${Prisma.raw(`"${table}"`)}
            WHERE ${at} >= ${p.sinceUtc}::timestamp AND ${where} GROUP BY 1) x ORDER BY 1`,
    example: { sinceUtc: "2026-01-01T00:00:00.000" },
  });
}
