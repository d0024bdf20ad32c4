import { z } from "zod";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { patchOf } from "../../http/patch.ts";
import { translationsBody } from "../../http/translations.ts";

export const bannerBody = z.strictObject({
  title: z.string({ error: "Please enter a title" }).trim().min(1, { error: "Please enter a title" }).max(200),
  /** the caption in the other languages; `title` is English */
  titles: translationsBody(200).default({}),
  imageUrl: z.string({ error: "Please enter the image URL" }).trim().min(1, { error: "Please enter the image URL" }).max(500),
  link: z.string().trim().max(500).nullish(),
  /** the app writes the live price claim over the picture */
  showsPrices: z.boolean().default(false),
  enabled: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(1_000_000).default(0),
});
export const bannerUpdateBody = patchOf(bannerBody);
export const bannerFilter = z.strictObject({ id: idsFilter, q: textFilter, enabled: boolFilter });
export type BannerFilter = z.infer<typeof bannerFilter>;
export const bannerSortable = ["id", "sortOrder", "title"] as const;

export const promptBody = z.strictObject({
  text: z.string({ error: "Please enter the text" }).trim().min(1, { error: "Please enter the text" }).max(1000),
  /** the text in the other languages; `text` is English */
  texts: translationsBody(1000).default({}),
  category: z.string().trim().min(1).max(64).default("general"),
  enabled: z.boolean().default(true),
  sortOrder: z.number().int().min(0).max(1_000_000).default(0),
});
export const promptUpdateBody = patchOf(promptBody);
export const promptFilter = z.strictObject({ id: idsFilter, q: textFilter, category: textFilter, enabled: boolFilter });
export type PromptFilter = z.infer<typeof promptFilter>;
export const promptSortable = ["id", "sortOrder", "category"] as const;

/** Site settings are keyed documents: `basicSettings`, `siteConfig`, and whatever later issues add. */
export const settingKey = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][\w.-]*$/, { error: "key may hold letters, digits, _ . -" });
/** A setting value: any JSON, or JSON text from the console's editor. */
const jsonValue = z
  .unknown()
  .transform((v, ctx) => {
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "value must be JSON" });
      return z.NEVER;
    }
  })
  .refine((v) => v !== undefined, { error: "value is required" });
export const settingBody = z.strictObject({ key: settingKey, value: jsonValue });
export const settingUpdateBody = z.object({ value: jsonValue });
export const settingFilter = z.strictObject({
  id: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  q: textFilter,
});
export type SettingFilter = z.infer<typeof settingFilter>;
export const settingSortable = ["id", "updatedAt"] as const;

// What the routes answer (docs/decisions/229).

/** banners list  */
export const bannerRecord = z.object({
  id: z.number(),
  createdAt: z.date(),
  link: z.string().nullable(),
  title: z.string(),
  titles: z.unknown(),
  sortOrder: z.number(),
  enabled: z.boolean(),
  showsPrices: z.boolean(),
  imageUrl: z.string(),
});

/** prompt-suggestions list  */
export const promptSuggestionRecord = z.object({
  id: z.number(),
  text: z.string(),
  sortOrder: z.number(),
  enabled: z.boolean(),
  category: z.string(),
  texts: z.unknown(),
});

/** site-settings list  */
export const siteSettingRecord = z.object({
  id: z.string(),
  value: z.unknown(),
  key: z.string(),
  /** null: the brand, never saved, shown with its defaults */
  updatedAt: z.date().nullable(),
});
