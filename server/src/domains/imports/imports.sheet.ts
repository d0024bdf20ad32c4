import path from "node:path/posix";
import sax from "sax";
import type { SheetRefusal } from "../../contract/imports.ts";
import { unpack, ZipDamaged, type ZipEntry, zipEntries, ZipTooLarge } from "./imports.zip.ts";

/**
 * Reads an .xlsx (an OOXML zip) with the central directory read here, zlib, and the `sax` streaming XML parser
 * (docs/decisions/371): only the parts that hold cell values are unpacked (workbook, its relationships, shared strings,
 * the first sheet), each capped in size, and the sheet is read row by row, stopping at the row limit. It runs in a
 * worker thread (imports.workbook.ts); nothing here touches the API's state.
 */

/** A cell as the row schemas see it: text trimmed, empty cells null. */
export type Cell = string | number | boolean | null;
/** One data row by column name, with its row number in the sheet (the header is row 1). */
export interface SheetRow {
  row: number;
  cells: Record<string, Cell>;
}

export interface SheetLimits {
  /** Files in the archive. */
  maxEntries: number;
  /** Unpacked bytes of any one part; parts are read one at a time. */
  maxPartBytes: number;
  /** Unpacked bytes of the whole archive, as its central directory declares them. */
  maxTotalBytes: number;
  /** Data rows under the header. */
  maxRows: number;
}

/** The file cannot be taken as it is. */
export class SheetRefused extends Error {
  constructor(readonly refusal: SheetRefusal) {
    super(refusal);
  }
}

/** The archive's files, refused by their declared sizes before any is inflated. */
export function checkedEntries(bytes: Buffer, limits: SheetLimits): Map<string, ZipEntry> {
  try {
    const entries = zipEntries(bytes, limits.maxEntries);
    let total = 0;
    for (const e of entries.values()) {
      total += e.size;
      if (e.size > limits.maxPartBytes || total > limits.maxTotalBytes) throw new SheetRefused("tooLarge");
    }
    return entries;
  } catch (e) {
    throw refusalOf(e);
  }
}

function refusalOf(e: unknown): unknown {
  if (e instanceof ZipTooLarge) return new SheetRefused("tooLarge");
  if (e instanceof ZipDamaged) return new SheetRefused("unreadable");
  return e;
}

const MAX_CELL_CHARS = 32_767;

const local = (name: string) => name.slice(name.indexOf(":") + 1);

/** Runs `sax` over one part, handing each element's local name and attributes to `open`, its end to `close`, and text to `text`. */
function parseXml(
  xml: Buffer,
  on: { open?: (name: string, attrs: Record<string, string>) => void; close?: (name: string) => void; text?: (t: string) => void },
) {
  // strict mode; sax expands only XML's own five entities and character references, never a DOCTYPE's
  const parser = sax.parser(true, { trim: false, normalize: false });
  parser.onerror = () => {
    throw new SheetRefused("unreadable");
  };
  parser.onopentag = (tag) => on.open?.(local(tag.name), tag.attributes as Record<string, string>);
  parser.onclosetag = (name) => on.close?.(local(name));
  parser.ontext = parser.oncdata = (t) => on.text?.(t);
  const text = xml.toString("utf8");
  // fed in slices so a row limit reached early stops the work there
  for (let i = 0; i < text.length; i += 65_536) parser.write(text.slice(i, i + 65_536));
  parser.close();
}

/** OOXML escapes characters XML cannot hold as `_xHHHH_`. */
const unescapeOoxml = (s: string) => s.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A relationships part as Id → { type, target resolved against `base`'s folder }. */
function relationships(xml: Buffer | undefined, base: string): Map<string, { type: string; target: string }> {
  const rels = new Map<string, { type: string; target: string }>();
  if (!xml) return rels;
  parseXml(xml, {
    open(name, a) {
      if (name !== "Relationship" || !a.Id || !a.Target || a.TargetMode === "External") return;
      const target = a.Target.startsWith("/") ? a.Target.slice(1) : path.join(path.dirname(base), a.Target);
      rels.set(a.Id, { type: a.Type ?? "", target: path.normalize(target) });
    },
  });
  return rels;
}

/** The shared strings table: rich-text runs joined, phonetic guides (`rPh`) left out. */
function sharedStrings(xml: Buffer | undefined): string[] {
  const strings: string[] = [];
  if (!xml) return strings;
  let current: string | null = null;
  let inT = false;
  let phonetic = 0;
  parseXml(xml, {
    open(name) {
      if (name === "si") current = "";
      else if (name === "rPh") phonetic++;
      else if (name === "t") inT = true;
    },
    close(name) {
      if (name === "si" && current !== null) {
        strings.push(unescapeOoxml(current));
        current = null;
      } else if (name === "rPh") phonetic--;
      else if (name === "t") inT = false;
    },
    text(t) {
      if (inT && !phonetic && current !== null) current += t;
    },
  });
  return strings;
}

/** "AB12" → 27 (0-based column); null when the reference has no column letters. */
function columnOf(ref: string): number | null {
  let col = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) - 64;
    if (c < 1 || c > 26) break;
    col = col * 26 + c;
  }
  return i === 0 ? null : col - 1;
}

/** Excel's day 0 (30 December 1899) as a Unix time: dates are stored as day numbers from it. */
export const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
export const DAY_MS = 86_400_000;

/** A cell's value as Excel stores it (the cached result of a formula; errors are no value). */
function storedValue(type: string, v: string | null, inline: string | null, strings: string[]): Cell | undefined {
  switch (type) {
    case "s":
      return v === null ? undefined : strings[Number.parseInt(v, 10)];
    case "str":
      return v === null ? undefined : unescapeOoxml(v);
    case "inlineStr":
      return unescapeOoxml(inline ?? "");
    case "b":
      return v === null ? undefined : v === "1" || v.toLowerCase() === "true";
    case "e":
      return null;
    case "d": {
      const ms = v === null ? Number.NaN : Date.parse(v);
      return Number.isNaN(ms) ? undefined : (ms - EXCEL_EPOCH_MS) / DAY_MS;
    }
    default: {
      if (v === null || v === "") return undefined;
      const n = Number.parseFloat(v);
      return Number.isFinite(n) ? n : null;
    }
  }
}

function cellOf(v: Cell | undefined): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v.trim() === "" ? null : v.trim();
  return v;
}

/**
 * Calls `onRow` with each row of the first sheet that holds a value (its number as Excel shows it, and its cells by
 * 0-based column), in order; `onRow` stops the reading by throwing. The archive's declared sizes are checked first.
 */
export function eachSheetRow(bytes: Buffer, limits: SheetLimits, onRow: (row: number, cells: Map<number, Cell>) => void): void {
  const entries = checkedEntries(bytes, limits);
  const part = (name: string) => {
    const entry = entries.get(name);
    try {
      return entry && unpack(bytes, entry, limits.maxPartBytes);
    } catch (e) {
      throw refusalOf(e);
    }
  };
  const root = relationships(part("_rels/.rels"), "");
  const workbookPath = [...root.values()].find((r) => r.type.endsWith("/officeDocument"))?.target ?? "xl/workbook.xml";
  const workbook = part(workbookPath);
  if (!workbook) throw new SheetRefused("unreadable");
  let firstSheetRel: string | undefined;
  parseXml(workbook, {
    open(name, a) {
      if (name !== "sheet" || firstSheetRel !== undefined) return;
      firstSheetRel = Object.entries(a).find(([k]) => k.endsWith(":id"))?.[1] ?? "";
    },
  });
  const rels = relationships(part(path.join(path.dirname(workbookPath), "_rels", `${path.basename(workbookPath)}.rels`)), workbookPath);
  const sheetPath = firstSheetRel === undefined ? undefined : rels.get(firstSheetRel)?.target;
  const sheet = sheetPath && part(sheetPath);
  if (!sheet) throw new SheetRefused("unreadable");
  const stringsPath = [...rels.values()].find((r) => r.type.endsWith("/sharedStrings"))?.target;
  const strings = sharedStrings(stringsPath ? part(stringsPath) : undefined);

  let rowNumber = 0;
  let cells = new Map<number, Cell>();
  let column = -1;
  let cell: { type: string; v: string | null; inline: string | null } | null = null;
  let reading: "v" | "t" | null = null;
  let phonetic = 0;
  parseXml(sheet, {
    open(name, a) {
      if (name === "row") {
        rowNumber = a.r ? Number.parseInt(a.r, 10) : rowNumber + 1;
        if (!Number.isSafeInteger(rowNumber) || rowNumber < 1) throw new SheetRefused("unreadable");
        cells = new Map();
        column = -1;
      } else if (name === "c") {
        column = (a.r ? columnOf(a.r) : null) ?? column + 1;
        cell = { type: a.t ?? "n", v: null, inline: null };
        phonetic = 0;
      } else if (cell && name === "v") {
        reading = "v";
        cell.v = "";
      } else if (cell && name === "rPh") phonetic++;
      else if (cell && name === "t" && !phonetic) {
        reading = "t";
        cell.inline ??= "";
      }
    },
    close(name) {
      if (name === "row") {
        if (cells.size) onRow(rowNumber, cells);
      } else if (name === "c" && cell) {
        const value = cellOf(storedValue(cell.type, cell.v, cell.inline, strings));
        // Excel itself holds at most 32,767 characters in a cell
        if (typeof value === "string" && value.length > MAX_CELL_CHARS) throw new SheetRefused("unreadable");
        if (value !== null) cells.set(column, value);
        cell = null;
      } else if (name === "rPh") phonetic--;
      else if (name === "v" || name === "t") reading = null;
    },
    text(t) {
      if (!cell || reading === null) return;
      if (reading === "v") cell.v += t;
      else cell.inline += t;
    },
  });
}

/**
 * The first sheet's rows under its header (the first row holding a value), keyed by the `columns` named there (case
 * and spaces ignored). Refuses a sheet without those columns, with more than `limits.maxRows` rows under the header
 * (counted as Excel numbers them and as they come, stopping there), or with none. The text handed back is held to
 * `limits.maxPartBytes` characters: one shared string named in every cell must not multiply into gigabytes.
 */
export function readTable(bytes: Buffer, columns: readonly string[], limits: SheetLimits): SheetRow[] {
  let header: { row: number; index: number[] } | null = null;
  const rows: SheetRow[] = [];
  let text = 0;
  eachSheetRow(bytes, limits, (row, cells) => {
    if (!header) {
      const names = new Map<string, number>();
      for (const [col, v] of [...cells].sort(([a], [b]) => a - b)) {
        const name = String(v).trim().toLowerCase();
        if (!names.has(name)) names.set(name, col);
      }
      const index = columns.map((c) => names.get(c.toLowerCase()) ?? -1);
      if (index.includes(-1)) throw new SheetRefused("missingColumns");
      header = { row, index };
      return;
    }
    // a row number repeated or out of order counts as a row all the same
    if (row - header.row > limits.maxRows || rows.length >= limits.maxRows) throw new SheetRefused("tooManyRows");
    const values = header.index.map((col) => cells.get(col) ?? null);
    for (const v of values) if (typeof v === "string") text += v.length;
    if (text > limits.maxPartBytes) throw new SheetRefused("tooLarge");
    if (values.some((v) => v !== null)) rows.push({ row, cells: Object.fromEntries(columns.map((c, i) => [c, values[i]])) });
  });
  if (!header) throw new SheetRefused("missingColumns");
  if (!rows.length) throw new SheetRefused("empty");
  return rows;
}
