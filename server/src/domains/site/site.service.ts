import type { Db } from "../../db/client.ts";
import { translationsOf } from "../../http/translations.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { siteMediaUrl } from "../templates/templates.service.ts";

/** Banners, prompt suggestions and site settings as the Index calls show them; site.admin.service edits them. */
export function createSiteService(db: Db, storage: MediaStorage) {
  const urlOf = (value: string | null) => siteMediaUrl(storage, value);
  return {
    async banners() {
      const rows = await db.banner.findMany({ where: { enabled: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] });
      return Promise.all(rows.map(async (b) => ({ id: b.id, title: b.title, image_url: await urlOf(b.imageUrl), link: b.link, shows_prices: b.showsPrices })));
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
      return { ...defaults, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
