import { z } from "zod";
import { TRANSLATED_LANGUAGES, type Translations } from "../contract/locales.ts";

/**
 * A staff-written text in the app's other languages, as the console sends it: one optional string per language; an
 * empty one means "not translated" (the English text is shown) and is dropped.
 */
export function translationsBody(maxLength: number) {
  const text = z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), z.string().trim().max(maxLength).optional());
  return z.strictObject(Object.fromEntries(TRANSLATED_LANGUAGES.map((l) => [l, text])) as Record<(typeof TRANSLATED_LANGUAGES)[number], typeof text>, {
    error: `translations must be an object with ${TRANSLATED_LANGUAGES.join(", ")}`,
  });
}

/** The stored translations as the API hands them out: only strings of known languages. */
export function translationsOf(value: unknown): Translations {
  const stored = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return Object.fromEntries(TRANSLATED_LANGUAGES.flatMap((l) => (typeof stored[l] === "string" && stored[l] ? [[l, stored[l]]] : [])));
}

/** The translations as a route answers them (docs/decisions/229): one optional string per translated language. */
export const translationsAnswer = z.object({
  ja: z.string().optional(),
  ko: z.string().optional(),
  ru: z.string().optional(),
} satisfies Record<(typeof TRANSLATED_LANGUAGES)[number], z.ZodOptional<z.ZodString>>);
