import { z } from "zod";
import { jsonDate } from "../../http/coercion.ts";
import { LEGAL_DOCUMENTS, LEGAL_FIELDS } from "../../contract/legal.ts";
import { idsFilter } from "../../http/list-filters.ts";

const DOC_MAX = 50_000;
const optionalText = z
  .string()
  .trim()
  .max(DOC_MAX, { error: `A document may be at most ${DOC_MAX} characters` })
  .optional();

/** One document's text: English always, the app's other languages when staff give them (English is shown otherwise). */
const perLanguage = z.strictObject({
  en: z.string({ error: "Please write the English text" }).trim().min(1, { error: "Please write the English text" }).max(DOC_MAX),
  ja: optionalText,
  ko: optionalText,
  ru: optionalText,
});

/** A new version of the legal pages; the particulars left empty are shown as missing. */
export const legalVersionBody = z.strictObject({
  effectiveAt: jsonDate("effectiveAt must be a date"),
  companyName: z.string().trim().max(200).default(""),
  address: z.string().trim().max(500).default(""),
  contactEmail: z.union([z.literal(""), z.email({ error: "Please enter a valid email" })]).default(""),
  dmcaAgent: z.string().trim().max(1000).default(""),
  custodianStatement: z.string().trim().max(5000).default(""),
  documents: z.record(z.enum(LEGAL_DOCUMENTS), perLanguage, { error: `documents must have ${LEGAL_DOCUMENTS.join(", ")}` }),
});
export type LegalVersionBody = z.infer<typeof legalVersionBody>;

export const legalVersionFilter = z.strictObject({ id: idsFilter });
export const legalVersionSortable = ["id", "version", "effectiveAt", "createdAt"] as const;

const documentsAnswer = z.record(z.enum(LEGAL_DOCUMENTS), perLanguage);
const fieldsAnswer = z.object(Object.fromEntries(LEGAL_FIELDS.map((f) => [f, z.string()])) as Record<(typeof LEGAL_FIELDS)[number], z.ZodString>);

export const legalVersionRecord = fieldsAnswer.extend({
  id: z.number(),
  version: z.number(),
  effectiveAt: z.date(),
  documents: documentsAnswer,
  createdById: z.number().nullable(),
  createdAt: z.date(),
  /** the particulars still empty: the pages say so */
  missing: z.array(z.enum(LEGAL_FIELDS)),
  /** the version in force now */
  current: z.boolean(),
});
export type LegalVersionRecord = z.infer<typeof legalVersionRecord>;

/** GET /api/legal/current: the version in force, null before any is published. */
export const legalCurrentAnswer = z
  .object({
    version: z.number(),
    effective_at: z.string(),
    fields: fieldsAnswer,
    missing: z.array(z.enum(LEGAL_FIELDS)),
    documents: documentsAnswer,
  })
  .nullable();
export type LegalCurrentAnswer = z.infer<typeof legalCurrentAnswer>;
