import i18n, { type PostProcessorModule } from "i18next";
import { initReactI18next } from "react-i18next";
import { afterFirstPaint } from "../lib/after-paint.ts";
import { storage } from "../lib/storage.ts";
import { lazy, type ComponentType } from "react";
import en from "./locales/en.json?first";

import { LANGUAGES, type Language } from "../../../server/src/contract/locales.ts";

export { LANGUAGES, type Language };

// English for the landing page ships with the first load, the rest of English right after it
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

async function loadLanguage(lng: Language): Promise<void> {
  if (lng === "en" || i18n.hasResourceBundle(lng, "translation")) return;
  const mod = await loaders[lng]();
  i18n.addResourceBundle(lng, "translation", mod.default, true, true);
}

let laterEnglish: Promise<void> | undefined;

/** The English namespaces the first paint did not need; fetched once. */
export function loadLaterTranslations(): Promise<void> {
  laterEnglish ??= import("./locales/en.json?later").then((mod) => {
    i18n.addResourceBundle("en", "translation", mod.default, true, false);
  });
  return laterEnglish;
}

/** A lazily loaded module that renders only once every English text is there (routes' `lazy`, `lazyView`). */
export async function withLaterTranslations<M>(load: Promise<M>): Promise<M> {
  const [mod] = await Promise.all([load, loadLaterTranslations()]);
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
    .use(initReactI18next)
    .init({
      lng: "en",
      fallbackLng: "en",
      resources: { en: { translation: en } },
      interpolation: { escapeValue: false },
      postProcess: ["usage"],
      returnNull: false,
    });
  if (lng !== "en") await changeLanguage(lng);
  document.documentElement.lang = lng;
  // once the landing page has loaded and the browser is idle: nothing of the first paint waits for it
  afterFirstPaint(() => void loadLaterTranslations());
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
