import type { Db } from "../../db/client.ts";
import type { GenerationMode } from "../../db/generated/enums.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { translationsOf } from "./translations.ts";

export const VIDEO_MODES: GenerationMode[] = ["image_to_video", "audio_overlay", "video_to_video", "text_to_video", "role_video"];

/**
 * Seeded and uploaded covers and banner images are site media keys (`site/...`), handed out as signed URLs; staff may
 * also enter their own URL in the console, which is passed through. Nothing else is signed, so no entry can expose user media.
 */
export async function siteMediaUrl(storage: MediaStorage, value: string | null): Promise<string | null> {
  if (!value) return null;
  if (value.startsWith("site/") && !value.includes("..")) return storage.signedUrl(value);
  return /^(https?:\/\/|\/)/.test(value) ? value : null;
}

/** Templates, banners, prompt suggestions and site settings: what the Index calls show. */
export function createTemplatesService(db: Db, storage: MediaStorage) {
  const urlOf = (value: string | null) => siteMediaUrl(storage, value);

  async function templateView(t: { id: number; name: string; names: unknown; category: string; suitFor: string; mode: GenerationMode; engineParams: unknown; creditPrice: number; coverUrl: string | null }) {
    return { id: t.id, name: t.name, names: translationsOf(t.names), category: t.category, suit_for: t.suitFor, mode: t.mode, params: t.engineParams, credit_price: t.creditPrice, cover_url: await urlOf(t.coverUrl) };
  }

  return {
    async list(q: { suitFor?: string; category?: string; modes?: GenerationMode[] }) {
      const rows = await db.template.findMany({
        where: { enabled: true, ...(q.suitFor ? { suitFor: q.suitFor } : {}), ...(q.category ? { category: q.category } : {}), ...(q.modes ? { mode: { in: q.modes } } : {}) },
        orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
      });
      return Promise.all(rows.map(templateView));
    },

    /** An enabled template, or 404. */
    async get(id: number) {
      const t = await db.template.findFirst({ where: { id, enabled: true } });
      if (!t) throw HttpError.notFound();
      return t;
    },

    async banners() {
      const rows = await db.banner.findMany({ where: { enabled: true }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] });
      return Promise.all(rows.map(async (b) => ({ id: b.id, title: b.title, image_url: await urlOf(b.imageUrl), link: b.link })));
    },

    async prompts(category?: string) {
      const rows = await db.promptSuggestion.findMany({ where: { enabled: true, ...(category ? { category } : {}) }, orderBy: [{ sortOrder: "asc" }, { id: "asc" }] });
      return rows.map((p) => ({ id: p.id, text: p.text, texts: translationsOf(p.texts), category: p.category }));
    },

    /** Staff-editable settings (site_settings) over the defaults given. */
    async settings(defaults: Record<string, unknown>) {
      const rows = await db.siteSetting.findMany();
      return { ...defaults, ...Object.fromEntries(rows.map((r) => [r.key, r.value])) };
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
