import { z } from "zod";

/** The parts of a zod schema's definition that hold other schemas, by the kind of schema (zod 4's `def`). */
type Def = {
  type: string;
  coerce?: boolean;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  valueType?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
};

/**
 * The paths of the fields of `schema` that coerce their input (`z.coerce.number()` takes `"10"`, `[10]`, `" 5 "` and
 * `"1e3"`). A JSON body's number is a JSON number: only a query string, a path or a multipart form has nothing but
 * strings, so only those may coerce (issue 47).
 */
export function coercedFields(schema: z.ZodType, path = "", seen = new Set<z.ZodType>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { def: Def }).def;
  const inner = (s: z.ZodType | null | undefined, at = path) => (s ? coercedFields(s, at, seen) : []);
  const found = def.coerce ? [path || "(body)"] : [];
  switch (def.type) {
    case "object":
      return [...found, ...Object.entries(def.shape ?? {}).flatMap(([k, v]) => inner(v, path ? `${path}.${k}` : k))];
    case "pipe":
      return [...found, ...inner(def.in), ...inner(def.out)];
    case "union":
      return [...found, ...(def.options ?? []).flatMap((o) => inner(o))];
    case "array":
      return [...found, ...inner(def.element, `${path}[]`)];
    case "tuple":
      return [...found, ...(def.items ?? []).flatMap((o, i) => inner(o, `${path}[${i}]`)), ...inner(def.rest, `${path}[]`)];
    case "record":
      return [...found, ...inner(def.valueType, `${path}.*`)];
    case "intersection":
      return [...found, ...inner(def.left), ...inner(def.right)];
    default:
      return [...found, ...inner(def.innerType)];
  }
}

/**
 * A date in a JSON body: JSON has no dates, so it is an ISO 8601 string (or a Date already made, as a spreadsheet's date
 * cell is); a number, a list or any other text is refused, where `z.coerce.date()` would take `[2026]` or `0`.
 */
export const jsonDate = (error: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && ISO_DATE.test(v) ? new Date(v) : v),
    z.date({ error }).refine((d) => !Number.isNaN(d.getTime()), { error }),
  );
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
