import { z } from "zod";
import { BASE_CURRENCY, CURRENCIES } from "../../contract/currencies.ts";
import { PRODUCT_KINDS } from "../../contract/orders.ts";
import { jsonDate } from "../../http/coercion.ts";
import { boolFilter, idsFilter, textFilter } from "../../http/list-filters.ts";
import { patchOf } from "../../http/patch.ts";
import { translationsBody } from "../../http/translations.ts";
import { currencyField } from "./products.schema.ts";

export const PRICES_NEED_BASE = `Please give a price in ${BASE_CURRENCY}`;

const whole = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .min(min, { error: `${name} must be ${min} or more` })
    .max(max, { error: `${name} must be at most ${max}` });
/** An empty field in the console's form is "none". */
const orNull = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === "" ? null : v), schema.nullable());

/** One price: minor units of its currency; the sale price is charged during the product's sale window. */
const priceBody = z.strictObject({
  currency: currencyField,
  priceMinor: whole("priceMinor", 1, 100_000_000),
  salePriceMinor: orNull(whole("salePriceMinor", 1, 100_000_000)).default(null),
});

/** What staff edit of a credit pack, plan or sale (issue 35 item 1), priced per currency (docs/decisions/300). */
export const productBody = z.strictObject({
  code: z
    .string({ error: "Please enter a code" })
    .trim()
    .regex(/^[a-z0-9][a-z0-9_-]{1,39}$/, { error: "code must be 2-40 lower-case letters, digits, _ or -" }),
  /** English; `names` holds the other languages */
  name: z.string({ error: "Please enter a name" }).trim().min(1, { error: "Please enter a name" }).max(80),
  names: translationsBody(80).default({}),
  kind: z.enum(PRODUCT_KINDS, { error: `kind must be one of ${PRODUCT_KINDS.join(", ")}` }).default("credits"),
  credits: whole("credits", 1, 1_000_000),
  bonusCredits: whole("bonusCredits", 0, 1_000_000).default(0),
  prices: z
    .array(priceBody, { error: PRICES_NEED_BASE })
    .max(CURRENCIES.length)
    .refine((list) => list.some((p) => p.currency === BASE_CURRENCY), { error: PRICES_NEED_BASE })
    .refine((list) => new Set(list.map((p) => p.currency)).size === list.length, { error: "Each currency may have one price only" }),
  saleStartsAt: orNull(jsonDate("saleStartsAt must be a date")).default(null),
  saleEndsAt: orNull(jsonDate("saleEndsAt must be a date")).default(null),
  perUserLimit: orNull(whole("perUserLimit", 1, 1000)).default(null),
  intervalDays: orNull(whole("intervalDays", 1, 366)).default(null),
  /** channel codes whose visitors see it; empty: every channel */
  channels: z.array(z.string().trim().min(1).max(64)).max(50).default([]),
  active: z.boolean().default(true),
  sortOrder: whole("sortOrder", 0, 1_000_000).default(0),
});
export type ProductBody = z.infer<typeof productBody>;
export const productUpdateBody = patchOf(productBody);

export const productFilter = z.strictObject({ id: idsFilter, q: textFilter, kind: z.enum(PRODUCT_KINDS).optional(), active: boolFilter });
export type ProductFilter = z.infer<typeof productFilter>;
export const productSortable = ["id", "sortOrder", "name", "credits", "createdAt"] as const;

// What the routes answer (docs/decisions/229).

/** products list, one product, and the answer of a change */
export const productRecord = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  names: z.unknown(),
  kind: z.enum(PRODUCT_KINDS),
  credits: z.number(),
  bonusCredits: z.number(),
  prices: z.array(z.object({ currency: currencyField, priceMinor: z.number(), salePriceMinor: z.number().nullable() })),
  saleStartsAt: z.date().nullable(),
  saleEndsAt: z.date().nullable(),
  perUserLimit: z.number().nullable(),
  intervalDays: z.number().nullable(),
  channels: z.array(z.string()),
  active: z.boolean(),
  sortOrder: z.number(),
  createdAt: z.date(),
  /** computed: the currencies in which it is the regular pack with the most credits for the money among those on sale */
  bestValueIn: z.array(currencyField),
  /** computed: the sale window is open now */
  saleRunning: z.boolean(),
});
