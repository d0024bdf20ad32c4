import type { z } from "zod";
import type { Tx } from "../../db/client.ts";
import type { Cell } from "./imports.sheet.ts";

/** A row that passed its schema, with its row number in the sheet. */
export interface ParsedRow<R> {
  row: number;
  data: R;
}

export interface WriteResult {
  applied: number;
  unchanged: number;
}

/** One list staff import: its row schema, the checks that need the database, and how its rows are written. */
export interface ImportListSpec<R> {
  /** The header row staff fill in, in the template's order. */
  columns: readonly string[];
  schema: z.ZodType<R>;
  /** The template's example row, in the list's column order. */
  example: readonly Cell[];
  /** Per row, what the database says is wrong with it (a channel or account that does not exist), or null. */
  check(rows: ParsedRow<R>[]): Promise<Map<number, string>>;
  /** Writes the rows in `tx`; `digest` (the file's SHA-256) makes a second run of the same file change nothing. */
  write(staffId: number, rows: ParsedRow<R>[], digest: string, tx: Tx): Promise<WriteResult>;
}
