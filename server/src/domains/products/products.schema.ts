import { z } from "zod";
import { CURRENCIES } from "../../contract/currencies.ts";
import { PRODUCT_KINDS } from "../../contract/orders.ts";

/** The visitor's currency (docs/decisions/300); a product not priced in it is shown in the base currency. */
export const currencyField = z.enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(", ")}` });
export const currencyQuery = z.object({ currency: currencyField.optional() });

export const productIdQuery = currencyQuery.extend({
  product_id: z.coerce.number({ error: "Please choose a product" }).int({ error: "Please choose a product" }).positive({ error: "Please choose a product" }),
});

/** One of a product's prices, in minor units of its currency. */
const priceAnswer = z.object({
  /** what it costs now (the sale price while a sale runs) */
  price: z.number(),
  /** the regular price, only while a sale runs */
  was_price: z.number().nullable(),
  currency: z.enum(CURRENCIES),
  price_text: z.string(),
  was_price_text: z.string().nullable(),
  /** what one credit costs at this price now, unrounded (a plan's per period); null for an offer with a per-person limit (decision 380) */
  per_credit: z.number().nullable(),
  /** the lowest per_credit in this currency among packs and plans, where two or more compete (decision 380) */
  best_value: z.boolean(),
});

// What the routes answer (docs/decisions/229).

/** A product on sale as the pricing page and checkout show it (get /api/index/getProductDetail). */
export const productAnswer = z.object({
  product_id: z.number(),
  code: z.string(),
  name: z.string(),
  /** the name in other languages (ja, ko, ru) where staff gave one */
  names: z.record(z.string(), z.string()),
  kind: z.enum(PRODUCT_KINDS),
  credits: z.number(),
  bonus_credits: z.number(),
  ...priceAnswer.shape,
  /** every price it has, one per currency; the fields above are the one in the visitor's currency (else USD) */
  prices: z.array(priceAnswer),
  per_user_limit: z.number().nullable(),
  interval_days: z.number().nullable(),
  /** the end of the sale running now */
  flash_sale_ends_at: z.date().nullable(),
  /** the start of the sale running now: the app pops up only sales that started after its last popup */
  sale_starts_at: z.date().nullable(),
  seconds_left: z.number().nullable(),
});

/** get /api/index/getProducts */
export const getProductsAnswer = z.object({
  list: z.array(productAnswer),
});

/** get /api/Personal/user_products_limited */
export const userProductsLimitedAnswer = z.object({
  list: z.array(productAnswer.extend({ remaining: z.number().nullable() })),
});
