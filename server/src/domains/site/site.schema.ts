import { z } from "zod";
import { LANGUAGES } from "../../contract/locales.ts";
import { translationsAnswer } from "../../http/translations.ts";

// What the routes answer (docs/decisions/229).

/** get /api/health */
export const healthAnswer = z.object({
  status: z.string(),
});

/** get /api/ready: each check true; a 503 carries the same checks as its data */
export const readyAnswer = z.object({
  status: z.string(),
  database: z.boolean(),
  migrations: z.boolean(),
  storage: z.boolean(),
});

/** get /api/Index/bannerList */
export const bannerListAnswer = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      /** the English caption */
      title: z.string(),
      /** the caption in the app's other languages; the app shows `title` for a language missing here */
      titles: translationsAnswer,
      image_url: z.string().nullable(),
      link: z.string().nullable(),
      /** write the live price claim over the picture */
      shows_prices: z.boolean(),
    }),
  ),
});

/** get /api/Index/promptList */
export const promptListAnswer = z.object({
  list: z.array(
    z.object({
      id: z.number(),
      text: z.string(),
      texts: translationsAnswer,
      category: z.string(),
    }),
  ),
});

/** get /api/Index/getSiteConfig */
export const basicSettingsAnswer = z.record(z.string(), z.unknown());

/** The operator's brand (docs/decisions/289): the consumer app builds its theme from it. */
export const brandAnswer = z.object({
  name: z.string(),
  logo: z.string().nullable(),
  logo_url: z.string().nullable(),
  primary: z.string(),
  secondary: z.string(),
  language: z.enum(LANGUAGES),
  /** free and guest output carries the logo (docs/decisions/296) */
  watermark: z.boolean(),
});

/** get /api/Index/basicSettings: staff-editable settings over the defaults, and the brand */
export const basicSettingsWithBrandAnswer = z.object({ site_name: z.string(), brand: brandAnswer }).catchall(z.unknown());

/** get /api/Index/redirectByCity */
export const redirectByCityAnswer = z.object({
  configured: z.boolean(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  url: z.string().nullable(),
  message: z.string().nullable(),
});
