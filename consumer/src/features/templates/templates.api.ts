import type { TranslatedLanguage, Translations } from "../../../../server/src/contract/locales.ts";
import { api } from "../../lib/api-client.ts";
import type { GenerationMode } from "../../../../server/src/contract/generation.ts";

export interface Template {
  id: number;
  name: string;
  category: string;
  suit_for: string;
  mode: GenerationMode;
  cover_url: string | null;
  /** A short loop (video modes) or image of what the template made of the project's sample picture. */
  preview_url: string | null;
  credit_price: number;
  /** false: it cannot run now (its engine or workflow is not available), so it is shown but not sold */
  available?: boolean;
  /** the name in the app's other languages (`name` is English) */
  names?: Translations;
}

/** A staff-written text in the reader's language: its translation when staff gave one, else the English text. */
export function inLanguage(english: string, translations: Translations | undefined, language: string): string {
  return translations?.[language as TranslatedLanguage] || english;
}

function listOf<T>(data: unknown): T[] {
  if (Array.isArray(data)) return data as T[];
  const list = (data as { list?: unknown } | null)?.list;
  return Array.isArray(list) ? (list as T[]) : [];
}

export async function getTemplates(): Promise<Template[]> {
  return listOf<Template>(await api.get("/api/Index/getTemplatesList", { quiet: true }));
}

export interface Banner {
  id: number;
  /** the English caption */
  title: string;
  /** the caption in the app's other languages */
  titles?: Translations;
  image_url: string;
  link?: string | null;
  /** the app writes the live price claim over the picture */
  shows_prices?: boolean;
}

export async function getBanners(): Promise<Banner[]> {
  return listOf<Banner>(await api.get("/api/Index/bannerList", { quiet: true }));
}

export interface PromptSuggestion {
  id: number;
  text: string;
  /** the text in the app's other languages (`text` is English) */
  texts?: Translations;
}

export async function getPrompts(): Promise<PromptSuggestion[]> {
  return listOf<PromptSuggestion>(await api.get("/api/Index/promptList", { quiet: true }));
}

/** The motion templates that make videos, for the home showcase. */
export async function getVideoTemplates(): Promise<Template[]> {
  return listOf<Template>(await api.get("/api/Index/getVideoTemp", { quiet: true }));
}
