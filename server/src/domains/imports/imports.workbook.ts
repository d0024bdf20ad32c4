import * as XLSX from "xlsx";
import { HttpError } from "../../http/errors.ts";

/** A spreadsheet staff may upload: small enough to preview on one screen and to apply in one transaction. */
export const MAX_SPREADSHEET_BYTES = 1024 * 1024;
export const MAX_SPREADSHEET_ROWS = 1000;

export const SPREADSHEET_MESSAGES = {
  notSpreadsheet: "Please upload an Excel spreadsheet (.xlsx or .xls)",
  tooBig: "The spreadsheet cannot exceed 1 MB",
  tooManyRows: `The spreadsheet can have at most ${MAX_SPREADSHEET_ROWS} rows`,
  unreadable: "The spreadsheet could not be read; please save it again as .xlsx",
  empty: "The spreadsheet has no rows under its header",
  missingColumns: (names: string[]) => `The first row must name the columns: ${names.join(", ")}`,
} as const;

/** xlsx is a zip (PK\3\4); xls is an OLE2 compound file. Anything else is refused before the parser sees it. */
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function isSpreadsheet(bytes: Buffer): boolean {
  return bytes.subarray(0, 4).equals(ZIP) || bytes.subarray(0, 8).equals(OLE2);
}

/** A cell as the row schemas see it: text trimmed, empty cells null. */
export type Cell = string | number | boolean | null;
/** One data row by column name, with its row number in the sheet (the header is row 1). */
export interface SheetRow {
  row: number;
  cells: Record<string, Cell>;
}

function cellOf(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.trim() === "" ? null : v.trim();
  if (typeof v === "number" || typeof v === "boolean") return v;
  return String(v);
}

/**
 * The first sheet's rows under its header row, keyed by the `columns` named there (case and spaces ignored). The
 * content is checked first (SheetJS would read plain text as CSV); formulas and HTML are not evaluated, only values.
 */
export function readSheet(bytes: Buffer, columns: readonly string[]): SheetRow[] {
  if (!isSpreadsheet(bytes)) throw HttpError.badRequest(SPREADSHEET_MESSAGES.notSpreadsheet);
  let table: unknown[][];
  // the sheet's first used row (0-based): with blank rows kept, row numbers are the ones staff see in Excel
  let first = 0;
  try {
    const book = XLSX.read(bytes, { type: "buffer", dense: true, cellFormula: false, cellHTML: false, cellText: false, sheetRows: MAX_SPREADSHEET_ROWS + 2 });
    const sheet = book.Sheets[book.SheetNames[0] ?? ""];
    first = sheet?.["!ref"] ? XLSX.utils.decode_range(sheet["!ref"]).s.r : 0;
    table = sheet ? XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, defval: null, raw: true, blankrows: true }) : [];
  } catch {
    throw HttpError.badRequest(SPREADSHEET_MESSAGES.unreadable);
  }
  const [header = [], ...body] = table;
  const names = header.map((h) =>
    String(h ?? "")
      .trim()
      .toLowerCase(),
  );
  const missing = columns.filter((c) => !names.includes(c.toLowerCase()));
  if (missing.length) throw HttpError.badRequest(SPREADSHEET_MESSAGES.missingColumns([...columns]));
  if (body.length > MAX_SPREADSHEET_ROWS) throw HttpError.badRequest(SPREADSHEET_MESSAGES.tooManyRows);
  const rows = body
    .map((line, i) => ({ row: first + i + 2, cells: Object.fromEntries(columns.map((c) => [c, cellOf(line[names.indexOf(c.toLowerCase())])])) }))
    .filter((r) => Object.values(r.cells).some((v) => v !== null));
  if (!rows.length) throw HttpError.badRequest(SPREADSHEET_MESSAGES.empty);
  return rows;
}

/** A template staff fill in: the header row and one example row, as .xlsx. */
export function templateOf(sheetName: string, columns: readonly string[], example: readonly Cell[]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[...columns], [...example]]), sheetName);
  return XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer;
}
