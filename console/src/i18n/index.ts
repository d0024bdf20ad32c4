import polyglotI18nProvider from "ra-i18n-polyglot";
import englishMessages from "ra-language-english";
import { en } from "./en.ts";
import { raRussian } from "./ra-russian.ts";
import { ru } from "./ru.ts";

/** react-admin keeps the chosen locale in its store (localStorage), so a reload keeps the language. */
const messages = { en: { ...englishMessages, ...en }, ru: { ...raRussian, ...ru } };

export const i18nProvider = polyglotI18nProvider((locale) => messages[locale as keyof typeof messages] ?? messages.en, "en", [
  { locale: "en", name: "English" },
  { locale: "ru", name: "Русский" },
]);
