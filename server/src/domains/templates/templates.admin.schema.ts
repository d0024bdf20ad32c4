import { z } from "zod";
import { patchOf } from "../../http/patch.ts";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { GENERATION_MODES } from "../../contract/generation.ts";
import { TEMPLATE_CATEGORIES } from "../../contract/templates.ts";


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
  category: z.enum(TEMPLATE_CATEGORIES, { error: "category must be Portrait, Lifestyle or Creative" }),
  suitFor: z.string({ error: "Please enter suit_for" }).trim().min(1, { error: "Please enter suit_for" }).max(64),
  mode: z.enum(GENERATION_MODES, { error: "Unknown generation mode" }),
  engineParams: engineParams.default({}),
  creditPrice: z.coerce.number({ error: "creditPrice must be a whole number" }).int().min(0, { error: "creditPrice must be 0 or more" }).max(10_000),
  coverUrl: z.string().trim().max(500).nullish(),
  enabled: z.boolean().default(true),
  sortOrder: z.coerce.number().int().min(0).max(1_000_000).default(0),
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
