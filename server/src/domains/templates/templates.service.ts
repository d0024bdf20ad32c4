import type { Db } from "../../db/client.ts";
import type { GenerationMode } from "../../contract/generation.ts";
import type { Translations } from "../../contract/locales.ts";
import { HttpError } from "../../http/errors.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { translationsOf } from "../../http/translations.ts";

/**
 * Seeded and uploaded covers and banner images are site media keys (`site/...`), handed out as signed URLs; staff may
 * also enter their own URL in the console, which is passed through. Nothing else is signed, so no entry can expose user media.
 */
export async function siteMediaUrl(storage: MediaStorage, value: string | null): Promise<string | null> {
  if (!value) return null;
  if (value.startsWith("site/") && !value.includes("..")) return storage.signedUrl(value);
  return /^(https?:\/\/|\/)/.test(value) ? value : null;
}

/** A template's engine, mode, pinned workflow and parameters (a camera move), as the generation engines are asked whether they can run it. */
export type TemplateRun = { engine: string | null; mode: GenerationMode; workflow: string | null; engineParams?: unknown };
/** Why the template cannot run now (its engine is not configured, or no server offers its workflow); null when it can. */
export type TemplateRefusal = (t: TemplateRun) => Promise<string | null>;

/**
 * Templates as the Index calls show them; one that cannot run now is listed as unavailable, so it is not offered for
 * sale at a price it cannot deliver (issue 34).
 */
export function createTemplatesService(db: Db, storage: MediaStorage, refusal: TemplateRefusal) {
  const urlOf = (value: string | null) => siteMediaUrl(storage, value);

  async function templateView(t: {
    id: number;
    name: string;
    names: unknown;
    category: string;
    suitFor: string;
    mode: GenerationMode;
    engineParams: unknown;
    creditPrice: number;
    coverUrl: string | null;
    previewKey: string | null;
    engine: string | null;
    workflow: string | null;
  }) {
    const [cover, preview, why] = await Promise.all([urlOf(t.coverUrl), urlOf(t.previewKey), refusal(t)]);
    return {
      id: t.id,
      name: t.name,
      names: translationsOf(t.names),
      category: t.category,
      suit_for: t.suitFor,
      mode: t.mode,
      params: t.engineParams,
      credit_price: t.creditPrice,
      cover_url: cover,
      preview_url: preview,
      available: why === null,
    };
  }

  return {
    async list(q: { suitFor?: string; category?: string; modes?: readonly GenerationMode[] }) {
      const rows = await db.template.findMany({
        where: {
          enabled: true,
          ...(q.suitFor ? { suitFor: q.suitFor } : {}),
          ...(q.category ? { category: q.category } : {}),
          ...(q.modes ? { mode: { in: [...q.modes] } } : {}),
        },
        orderBy: [{ sortOrder: "asc" }, { id: "asc" }],
      });
      return Promise.all(rows.map(templateView));
    },

    /** The names of these templates, enabled or not, English and per language (the console names templates in figures kept by id). */
    async names(ids: number[]): Promise<Map<number, { name: string; names: Translations }>> {
      const rows = ids.length ? await db.template.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, names: true } }) : [];
      return new Map(rows.map((t) => [t.id, { name: t.name, names: translationsOf(t.names) }]));
    },

    /** An enabled template, or 404. */
    async get(id: number) {
      const t = await db.template.findFirst({ where: { id, enabled: true } });
      if (!t) throw HttpError.notFound();
      return t;
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
