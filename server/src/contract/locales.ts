/** The languages the product speaks; the first is the default. Import-free (docs/decisions/050). */
export const LANGUAGES = ["en", "ja", "ko", "ru"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
