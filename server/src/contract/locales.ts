/** The languages the product speaks; the first is the default. Import-free (docs/decisions/050). */
export const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** The languages a staff-written text (a template's name, a prompt suggestion) is translated into: all but the default. */
export type TranslatedLanguage = Exclude<Language, "en">;
export const TRANSLATED_LANGUAGES = LANGUAGES.filter((l): l is TranslatedLanguage => l !== DEFAULT_LANGUAGE);

/** A staff-written text in the translated languages; a missing one falls back to the default language's text. */
export type Translations = Partial<Record<TranslatedLanguage, string>>;
