import type { z } from "zod";
import { type Cell, DAY_MS, EXCEL_EPOCH_MS } from "./imports.sheet.ts";

/**
 * A console form's zod body as spreadsheet columns, so that a list imported from a sheet is checked by the very schema
 * the form sends (docs/decisions/301) and follows it when a field is added or changed:
 * - a scalar field is one column of its name;
 * - a list of texts is one column, its items separated by commas;
 * - an object of texts (names per language) is a column per key: `names.ja`;
 * - a list of objects keyed by a choice (prices per currency) is a column per choice and other field: `prices.EUR.priceMinor`.
 */
type Kind = "scalar" | "number" | "boolean" | "date" | "list" | "object" | "keyed";
interface Column {
  field: string;
  kind: Kind;
  /** object: its keys; keyed: the choice's field, its values and the other fields */
  keys?: string[];
  by?: { field: string; values: string[]; rest: string[]; numbers: string[] };
}

/** zod's internal definition of a type, read only to see through its wrappers. */
type Def = any;
const defOf = (t: z.ZodType): Def => (t as unknown as { _zod: { def: Def } })._zod.def;

/** The type under defaults, optionals, nullables and preprocessing. */
function base(t: z.ZodType): Def {
  let d = defOf(t);
  while (["default", "optional", "nullable", "pipe", "readonly", "prefault"].includes(d.type)) d = defOf(d.type === "pipe" ? d.out : d.innerType);
  return d;
}

function columnOf(field: string, t: z.ZodType): Column {
  const d = base(t);
  if (d.type === "boolean") return { field, kind: "boolean" };
  if (d.type === "date") return { field, kind: "date" };
  if (d.type === "number") return { field, kind: "number" };
  if (d.type === "object") return { field, kind: "object", keys: Object.keys(d.shape) };
  if (d.type !== "array") return { field, kind: "scalar" };
  const item = base(d.element);
  if (item.type !== "object") return { field, kind: "list" };
  const [key, ...rest] = Object.keys(item.shape);
  const choice = base(item.shape[key!]);
  if (choice.type !== "enum") throw new Error(`${field}: a list of objects needs a choice as its first field to be a spreadsheet column`);
  const numbers = rest.filter((r) => base(item.shape[r]).type === "number");
  return { field, kind: "keyed", by: { field: key!, values: Object.values(choice.entries) as string[], rest, numbers } };
}

const namesOf = (c: Column): string[] =>
  c.kind === "object"
    ? c.keys!.map((k) => `${c.field}.${k}`)
    : c.kind === "keyed"
      ? c.by!.values.flatMap((v) => c.by!.rest.map((r) => `${c.field}.${v}.${r}`))
      : [c.field];

const YES = new Set(["true", "yes", "y", "1"]);
const NO = new Set(["false", "no", "n", "0"]);

function boolOf(v: Cell): unknown {
  const s = String(v).trim().toLowerCase();
  return YES.has(s) ? true : NO.has(s) ? false : v;
}

/**
 * A number column's text cell (a CSV's, or a sheet's cell typed as text) as the JSON number the form would send: the
 * form's schema takes JSON numbers only (issue 47). Only plain decimals: anything else stays text and is refused.
 */
const numberOf = (v: Cell): unknown => (typeof v === "string" && /^\s*-?\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** A date cell is read as its serial day number. */
const dateOf = (v: Cell): unknown => (typeof v === "number" ? new Date(EXCEL_EPOCH_MS + Math.round(v * DAY_MS)) : v);

/** Only the cells that are filled: an empty one is left out, so the schema's default or its "please enter" applies. */
const filled = (entries: [string, unknown][]) => {
  const kept = entries.filter(([, v]) => v !== null);
  return kept.length ? Object.fromEntries(kept) : undefined;
};

function cellValue(c: Column, cells: Record<string, Cell>): unknown {
  const v = cells[c.field] ?? null;
  switch (c.kind) {
    case "object":
      return filled(c.keys!.map((k) => [k, cells[`${c.field}.${k}`] ?? null]));
    case "keyed": {
      const { field, values, rest, numbers } = c.by!;
      const items = values.flatMap((choice) => {
        const item = filled(
          rest.map((r) => {
            const cell = cells[`${c.field}.${choice}.${r}`] ?? null;
            return [r, cell !== null && numbers.includes(r) ? numberOf(cell) : cell];
          }),
        );
        return item ? [{ [field]: choice, ...item }] : [];
      });
      return items.length ? items : undefined;
    }
    case "list":
      return v === null
        ? undefined
        : String(v)
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
    case "boolean":
      return v === null ? undefined : boolOf(v);
    case "date":
      return v === null ? undefined : dateOf(v);
    case "number":
      return v === null ? undefined : numberOf(v);
    default:
      return v === null ? undefined : v;
  }
}

/** The columns of a form's body and how a row of them becomes the body the form would send. */
export function sheetColumns(schema: z.ZodObject) {
  const columns = Object.entries(schema.shape).map(([field, t]) => columnOf(field, t as z.ZodType));
  return {
    names: columns.flatMap(namesOf),
    bodyOf: (cells: Record<string, Cell>) => filled(columns.map((c) => [c.field, cellValue(c, cells) ?? null])) ?? {},
  };
}
