import i18n, { type PostProcessorModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { storage } from "../lib/storage.ts";
import { lazy, type ComponentType } from "react";
import en from "./locales/en.json?first";
import { LATER_GROUP_NAMES, type LaterGroup } from "./later-namespaces.ts";
import { withBrandName } from "../features/site/brand.ts";

import { LANGUAGES, type Language } from "../../../server/src/contract/locales.ts";

export { LANGUAGES, type Language };

// English for the landing page ships with the first load, the rest with the screens and dialogs that show it
// (later-namespaces.ts); the other languages are fetched whole, only when chosen.
type Resources = { [key: string]: string | Resources };

const loaders: Record<Exclude<Language, "en">, () => Promise<{ default: Resources }>> = {
  ja: () => import("./locales/ja.json"),
  ko: () => import("./locales/ko.json"),
  ru: () => import("./locales/ru.json"),
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** SPEC.md §1: the stored language defaults to English (not the browser's language). */
export function storedLanguage(): Language {
  const stored = storage.get("language");
  return isLanguage(stored) ? stored : "en";
}

declare global {
  interface Window {
    /** Every key the UI has looked up (the e2e tests check them against each locale file). */
    __reverieUsedKeys?: Set<string>;
    /** Keys looked up before their texts were loaded (a screen rendering outside its later-English group; e2e tests). */
    __reverieMissingKeys?: Set<string>;
  }
}

const usage: PostProcessorModule = {
  type: "postProcessor",
  name: "usage",
  process(value: string, key: string | string[]) {
    const used = (window.__reverieUsedKeys ??= new Set());
    for (const k of Array.isArray(key) ? key : [key]) used.add(k);
    return value;
  },
};

/** The operator's product name wherever a text names the product (docs/decisions/289). */
const brandName: PostProcessorModule = { type: "postProcessor", name: "brand", process: (value: string) => withBrandName(value) };

async function loadLanguage(lng: Language): Promise<void> {
  if (lng === "en" || i18n.hasResourceBundle(lng, "translation")) return;
  const mod = await loaders[lng]();
  i18n.addResourceBundle(lng, "translation", mod.default, true, true);
}

const laterEnglish: Record<LaterGroup, () => Promise<{ default: Record<string, unknown> }>> = {
  creatorPage: () => import("./locales/en.json?later-creatorPage"),
  screens: () => import("./locales/en.json?later-screens"),
};
const laterLoaded = new Map<LaterGroup, Promise<void>>();

/** English namespaces the first paint did not need, by group; each group is fetched once. */
export function loadLaterTranslations(groups: readonly LaterGroup[] = LATER_GROUP_NAMES): Promise<void> {
  const loads = groups.map((group) => {
    let loading = laterLoaded.get(group);
    if (!loading) {
      loading = laterEnglish[group]().then((mod) => void i18n.addResourceBundle("en", "translation", mod.default, true, false));
      laterLoaded.set(group, loading);
    }
    return loading;
  });
  return Promise.all(loads).then(() => undefined);
}

/**
 * A lazily loaded module that renders only once its English texts are there (routes' `lazy`, `lazyView`): every later
 * group unless the caller names the ones it uses. Fetched together with the module's code, so no round trip is added.
 */
export async function withLaterTranslations<M>(load: Promise<M>, groups?: readonly LaterGroup[]): Promise<M> {
  const [mod] = await Promise.all([load, loadLaterTranslations(groups)]);
  return mod;
}

/** React.lazy for screens and dialogs outside the landing page's first paint: they may use any namespace. */
export function lazyView<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => withLaterTranslations(load()));
}

export async function initI18n(): Promise<void> {
  const lng = storedLanguage();
  await i18n
    .use(usage)
    .use(brandName)
    .use(initReactI18next)
    .init({
      lng: "en",
      fallbackLng: "en",
      resources: { en: { translation: en } },
      interpolation: { escapeValue: false },
      postProcess: ["usage", "brand"],
      returnNull: false,
      saveMissing: true,
      missingKeyHandler: (_lngs, _ns, key) => void (window.__reverieMissingKeys ??= new Set()).add(key),
    });
  if (lng !== "en") await changeLanguage(lng);
  document.documentElement.lang = lng;
}

/** The operator's default language (the brand) for a visitor who never chose one; not stored, so it follows a later change. */
export async function applyDefaultLanguage(lng: Language): Promise<void> {
  if (storage.get("language") || lng === i18n.language) return;
  await loadLanguage(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
}

export async function changeLanguage(lng: Language): Promise<void> {
  await loadLanguage(lng);
  storage.set("language", lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng;
}

/**
 * Server and client messages arrive as English text (SPEC.md §5/§8, word for word). Each one has a key under
 * `msg` in the locale files; `{name}` placeholders in the English text become interpolation values, so
 * 'Incorrect image format, please upload png/jpg format!' translates with its list of types.
 */
const messagePatterns: Array<{ key: string; pattern: RegExp; names: string[] }> = Object.entries(en.msg as Record<string, string>).map(([key, text]) => {
  const names: string[] = [];
  const source = (text as string)
    .split(/(\{\{\w+\}\})/)
    .map((part) => {
      const m = /^\{\{(\w+)\}\}$/.exec(part);
      if (m) {
        names.push(m[1]);
        return "(.+?)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { key, pattern: new RegExp(`^${source}$`), names };
});

export function translateMessage(message: string): string {
  for (const { key, pattern, names } of messagePatterns) {
    const m = pattern.exec(message);
    if (!m) continue;
    const values = Object.fromEntries(names.map((n, i) => [n, m[i + 1]]));
    return i18n.t(`msg.${key}`, values);
  }
  return message;
}

export default i18n;
