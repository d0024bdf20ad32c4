/** The app's languages (SPEC.md §1); English is the default and the language of the stored texts. */
export const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The languages a staff-written text (a template's name, a prompt suggestion) is translated into. */
export const TRANSLATED_LANGUAGES = ["ja", "ko", "ru"] as const;
export type TranslatedLanguage = (typeof TRANSLATED_LANGUAGES)[number];

/** A staff-written text in the translated languages; a missing one falls back to the English text. */
export type Translations = Partial<Record<TranslatedLanguage, string>>;
