import { BRAND_SETTING } from "../../contract/brand.ts";
import { TIP_SETTING } from "../../contract/tips.ts";
import type { Db } from "../../db/client.ts";
import { translationsOf } from "../../http/translations.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { siteMediaUrl } from "../templates/templates.service.ts";
import { publicBrand, storedBrand } from "./site.brand.ts";
import { storedTips } from "./site.tips.ts";

const EMAIL_LOGO_TTL_S = 7 * 24 * 3600;

/** Banners, prompt suggestions and site settings as the Index calls show them; site.admin.service edits them. */
export function createSiteService(db: Db, storage: MediaStorage) {
  const urlOf = (value: string | null) => siteMediaUrl(storage, value);
  return {
    async banners() {
      const rows = await db.banner.findMany({ where: { enabled: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] });
      return Promise.all(
        rows.map(async (b) => ({
          id: b.id,
          title: b.title,
          titles: translationsOf(b.titles),
          image_url: await urlOf(b.imageUrl),
          link: b.link,
          shows_prices: b.showsPrices,
        })),
      );
    },

    async prompts(category?: string) {
      const rows = await db.promptSuggestion.findMany({
        where: { enabled: true, ...(category ? { category } : {}) },
        orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
      });
      return rows.map((p) => ({ id: p.id, text: p.text, texts: translationsOf(p.texts), category: p.category }));
    },

    /** Staff-editable settings (site_settings) over the defaults given. */
    async settings(defaults: Record<string, unknown>) {
      const rows = await db.siteSetting.findMany();
      // checked settings are handed out by their own calls, never raw
      const shown = rows.filter((r) => r.key !== BRAND_SETTING && r.key !== TIP_SETTING);
      return { ...defaults, ...Object.fromEntries(shown.map((r) => [r.key, r.value])) };
    },

    /** The operator's brand, checked and with its defaults (the stored `brand` row is never handed out raw). */
    brand: () => publicBrand(db, storage),

    /** The tip presets and limits staff set (docs/decisions/304), or the defaults. */
    tips: () => storedTips(db),

    /** The brand for emails: the logo's URL absolute and long-lived (S3 presigning allows at most 7 days). */
    async emailBrand() {
      const brand = await storedBrand(db);
      return { name: brand.name, logoUrl: brand.logo ? await storage.fetchableUrl(brand.logo, EMAIL_LOGO_TTL_S) : null };
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
