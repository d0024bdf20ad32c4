import { z } from "zod";
import { GENERATION_MODES } from "../../contract/generation.ts";

// What the routes answer (docs/decisions/229).

/** A template as the studio and template pages show it. */
export const templateAnswer = z.object({
  id: z.number(),
  name: z.string(),
  names: z.object({
    ja: z.string().optional(),
    ko: z.string().optional(),
    ru: z.string().optional(),
  }),
  category: z.string(),
  suit_for: z.string(),
  mode: z.enum(GENERATION_MODES),
  params: z.unknown(),
  credit_price: z.number(),
  cover_url: z.string().nullable(),
  preview_url: z.string().nullable(),
  /** false: its engine cannot run it now (not configured, or no server offers its workflow); not on sale until it can */
  available: z.boolean(),
});

/** get /api/Index/getTemplatesList */
export const getTemplatesListAnswer = z.object({
  list: z.array(templateAnswer),
});

/** get /api/Index/getVideoTemp */
export const getVideoTempAnswer = z.object({
  list: z.array(templateAnswer),
  categories: z.array(
    z.object({
      name: z.string(),
      list: z.array(templateAnswer),
    }),
  ),
});
