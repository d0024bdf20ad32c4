import { z } from "zod";
import { IMPORT_LISTS } from "../../contract/imports.ts";

const text = (name: string, max: number) =>
  z.preprocess(
    (v) => (v === null || v === undefined ? undefined : String(v).trim()),
    z
      .string({ error: `Please enter the ${name}` })
      .min(1, { error: `Please enter the ${name}` })
      .max(max, { error: `The ${name} can be at most ${max} characters` }),
  );
const whole = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `The ${name} must be a number` })
    .int({ error: `The ${name} must be a whole number` })
    .min(min, { error: `The ${name} must be ${min} to ${max}` })
    .max(max, { error: `The ${name} must be ${min} to ${max}` });

/** One row of a pixel-id list: which channel, which of the eight kinds (SPEC.md §3 order), for which event, the id. */
export const pixelIdRow = z.object({
  channel: text("channel code", 64),
  kind: whole("kind", 1, 8),
  event: z.preprocess((v) => (v === null || v === undefined ? null : String(v).trim() || null), z.string().max(64).nullable()),
  value: text("pixel id or domain", 500),
});
export type PixelIdRow = z.infer<typeof pixelIdRow>;

/** One row of a credit-grant list: whom, how many credits, and why (the reason the audit log and ledger keep). */
export const creditGrantRow = z.object({
  user_id: whole("user id", 1, 2_147_483_647),
  credits: whole("credits", 1, 1_000_000),
  reason: text("reason", 500),
});
export type CreditGrantRow = z.infer<typeof creditGrantRow>;

/** The file's SHA-256 from its preview: apply refuses a file other than the one staff saw previewed. */
export const applyBody = z.object({
  digest: z.string({ error: "Please preview the file first" }).regex(/^[0-9a-f]{64}$/, { error: "Please preview the file first" }),
});

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** What a preview answers: every row with its problems; nothing is written. */
export const previewAnswer = z.object({
  list: z.enum(IMPORT_LISTS),
  digest: z.string(),
  /** the list's columns, in its template's order */
  columns: z.array(z.string()),
  rows: z.array(z.object({ row: z.number(), cells: z.record(z.string(), cell), errors: z.array(z.string()) })),
  valid: z.number(),
  invalid: z.number(),
});
export type PreviewAnswer = z.infer<typeof previewAnswer>;

/** What an apply answers: rows written now, and rows already there from an earlier run of the same list. */
export const applyAnswer = z.object({ list: z.enum(IMPORT_LISTS), applied: z.number(), unchanged: z.number() });
export type ApplyAnswer = z.infer<typeof applyAnswer>;
