import { z } from "zod";
import { BRAND_SETTING, type Brand, contrastRatio, DEFAULT_BRAND, HEX_COLOUR, MIN_CONTRAST, PAGE_BACKGROUND } from "../../contract/brand.ts";
import { DEFAULT_LANGUAGE, type Language, LANGUAGES } from "../../contract/locales.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { siteMediaUrl } from "../templates/templates.service.ts";
import { storedSetting } from "./site.settings.ts";

export const BRAND_MESSAGES = {
  name: "Please enter the product name (at most 40 characters)",
  colour: "A colour is written #rrggbb",
  language: `The default language is one of ${LANGUAGES.join(", ")}`,
  logo: "The logo is set by uploading an image",
  watermark: "The watermark is on (true) or off (false)",
} as const;

/** Why a colour cannot be an accent: text in it on the page (and the page colour on it) would be hard to read. */
export function contrastRefusal(field: "primary" | "secondary", colour: string): string | null {
  const ratio = contrastRatio(colour, PAGE_BACKGROUND);
  if (ratio >= MIN_CONTRAST) return null;
  return `The ${field} colour ${colour} has a contrast of ${ratio.toFixed(2)}:1 with the page background ${PAGE_BACKGROUND}; at least ${MIN_CONTRAST}:1 is needed so text stays readable`;
}

const colour = z.string({ error: BRAND_MESSAGES.colour }).regex(HEX_COLOUR, { error: BRAND_MESSAGES.colour }).toLowerCase();

/** The `brand` setting as staff may write it: every field optional (the default fills it), nothing else. */
const brandValue = z.strictObject({
  name: z.string({ error: BRAND_MESSAGES.name }).trim().min(1, { error: BRAND_MESSAGES.name }).max(40, { error: BRAND_MESSAGES.name }).optional(),
  // only the logo upload writes a key; a console save sends back the key it read
  logo: z
    .string()
    .regex(/^site\/brand\/[\w-]+\.(png|jpg)$/, { error: BRAND_MESSAGES.logo })
    .nullable()
    .optional(),
  primary: colour.optional(),
  secondary: colour.optional(),
  language: z.enum(LANGUAGES, { error: BRAND_MESSAGES.language }).optional(),
  watermark: z.boolean({ error: BRAND_MESSAGES.watermark }).optional(),
});

/**
 * The stored brand: the look, the default language, and whether free output carries the logo as a watermark
 * (issue 33 item 7, docs/decisions/296).
 */
export type SiteBrand = Brand & { language: Language; watermark: boolean };
/** Today's look and language, the watermark on: what an operator has not set. */
export const BRAND_DEFAULTS: SiteBrand = { ...DEFAULT_BRAND, language: DEFAULT_LANGUAGE, watermark: true };

/** The brand a setting value stands for, defaults filled in, or a 400 naming the first thing wrong (contrast included). */
export function checkedBrand(value: unknown): SiteBrand {
  const parsed = brandValue.safeParse(value);
  if (!parsed.success) throw HttpError.badRequest(parsed.error.issues[0].message);
  const brand = { ...BRAND_DEFAULTS, ...parsed.data };
  const refusal = contrastRefusal("primary", brand.primary) ?? contrastRefusal("secondary", brand.secondary);
  if (refusal) throw HttpError.badRequest(refusal);
  return brand;
}

/** The brand in force: the stored one, checked, or the defaults. */
export const storedBrand = (db: Db): Promise<SiteBrand> => storedSetting(db, BRAND_SETTING, checkedBrand, BRAND_DEFAULTS);

/** The brand as the consumer app and emails use it: the logo as a signed media URL. */
export async function publicBrand(db: Db, storage: MediaStorage) {
  const brand = await storedBrand(db);
  return { ...brand, logo_url: await siteMediaUrl(storage, brand.logo) };
}
