import { z } from "zod";
import { ENGINE_KINDS } from "../../contract/engines.ts";
import { patchOf } from "../../http/patch.ts";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { GENERATION_MODES } from "../../contract/generation.ts";
import { TEMPLATE_CATEGORIES } from "../../contract/templates.ts";
import { translationsBody } from "../../http/translations.ts";

/** Engine parameters arrive as an object, or as the JSON text the console's editor holds. */
const engineParams = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  },
  z.record(z.string(), z.unknown(), { error: "engineParams must be a JSON object" }),
);

export const templateBody = z.strictObject({
  name: z.string({ error: "Please enter a name" }).trim().min(1, { error: "Please enter a name" }).max(100),
  /** the name in the other languages; `name` is English */
  names: translationsBody(100).default({}),
  category: z.enum(TEMPLATE_CATEGORIES, { error: "category must be Portrait, Lifestyle or Creative" }),
  suitFor: z.string({ error: "Please enter suit_for" }).trim().min(1, { error: "Please enter suit_for" }).max(64),
  mode: z.enum(GENERATION_MODES, { error: "Unknown generation mode" }),
  engineParams: engineParams.default({}),
  /** null: GENERATION_ENGINE renders it. */
  engine: z.preprocess((v) => (v === "" ? null : v), z.enum(ENGINE_KINDS, { error: `engine must be one of ${ENGINE_KINDS.join(", ")}` }).nullish()),
  /** A workflow file's name (server/workflows); null: the engine's first for the mode. */
  workflow: z.preprocess(
    (v) => (v === "" ? null : v),
    z
      .string({ error: "workflow must be a workflow file's name" })
      .trim()
      .regex(/^[a-z0-9][a-z0-9-]{0,99}$/, { error: "workflow must be a workflow file's name" })
      .nullish(),
  ),
  creditPrice: z.number({ error: "creditPrice must be a whole number" }).int().min(0, { error: "creditPrice must be 0 or more" }).max(10_000),
  coverUrl: z.string().trim().max(500).nullish(),
  enabled: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(1_000_000).default(0),
});
export type TemplateBody = z.infer<typeof templateBody>;

export const templateUpdateBody = patchOf(templateBody);

export const templateFilter = z.strictObject({
  id: idsFilter,
  q: textFilter,
  category: z.enum(TEMPLATE_CATEGORIES).optional(),
  mode: z.enum(GENERATION_MODES).optional(),
  suitFor: textFilter,
  enabled: boolFilter,
});
export type TemplateFilter = z.infer<typeof templateFilter>;
export const templateSortable = ["id", "sortOrder", "name", "category", "creditPrice", "createdAt"] as const;

export const reorderBody = z.object({
  ids: z.array(z.number().int().positive(), { error: "ids must be the template ids in their new order" }).min(1).max(1000),
});

// What the routes answer (docs/decisions/229).

/** templates list  */
export const templateRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  name: z.string(),
  updatedAt: z.date(),
  sortOrder: z.number(),
  enabled: z.boolean(),
  category: z.string(),
  mode: z.enum(GENERATION_MODES),
  engine: z.string().nullable(),
  suitFor: z.string(),
  names: z.unknown(),
  engineParams: z.unknown(),
  workflow: z.string().nullable(),
  creditPrice: z.number(),
  coverUrl: z.string().nullable(),
  previewKey: z.string().nullable(),
  previewOf: z.string().nullable(),
  /** the cover's URL to show (not in the answers of changes) */
  coverSrc: z.string().nullable().optional(),
  /** in the answer of a save only: why the template cannot run now (engine not configured, workflow offered by no server) */
  warning: z.string().nullable().optional(),
});

/** post /admin/api/templates/reorder */
export const reorderAnswer = z.object({
  ids: z.array(z.number()),
});
