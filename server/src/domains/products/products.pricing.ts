import { BASE_CURRENCY, type Currency, isCurrency } from "../../contract/currencies.ts";
import type { Product } from "../../db/generated/client.ts";

/** One of a product's prices (docs/decisions/300): the regular one and, during the sale window, the sale one. */
export interface Price {
  currency: Currency;
  priceMinor: number;
  salePriceMinor: number | null;
}

/** What the pricing rules read of a product; `prices` as stored (JSON) or as staff sent them. */
export type Priced = Pick<Product, "kind" | "credits" | "bonusCredits" | "saleStartsAt" | "saleEndsAt" | "perUserLimit"> & { prices: unknown };

const whole = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0;

/** The stored prices as the rules read them: entries in a known currency with a whole amount (the JSON is checked on write). */
export function pricesOf(p: Pick<Priced, "prices">): Price[] {
  const list = Array.isArray(p.prices) ? (p.prices as Record<string, unknown>[]) : [];
  return list.flatMap((e) =>
    typeof e?.currency === "string" && isCurrency(e.currency) && whole(e.priceMinor)
      ? [{ currency: e.currency, priceMinor: e.priceMinor, salePriceMinor: whole(e.salePriceMinor) ? e.salePriceMinor : null }]
      : [],
  );
}

/** The product's price in this currency; undefined when it is not sold in it. */
export function priceIn(p: Pick<Priced, "prices">, currency: string): Price | undefined {
  return pricesOf(p).find((e) => e.currency === currency);
}

/** The currency a visitor sees the product in: their own where it is priced in it, else the base currency. */
export function shownCurrency(p: Pick<Priced, "prices">, visitor: string | undefined): Currency {
  const prices = pricesOf(p);
  return (prices.find((e) => e.currency === visitor) ?? prices.find((e) => e.currency === BASE_CURRENCY) ?? prices[0])?.currency ?? BASE_CURRENCY;
}

/** The product's sale window is open now (docs/decisions/266): start and end set, start passed, end not, and a sale price. */
export function saleRunning(p: Priced, now: Date): boolean {
  return p.saleStartsAt !== null && p.saleEndsAt !== null && p.saleStartsAt <= now && p.saleEndsAt > now && pricesOf(p).some((e) => e.salePriceMinor !== null);
}

/** What one costs now in this currency: the sale price while the sale runs, else the regular price; undefined when not sold in it. */
export function priceNow(p: Priced, currency: string, now: Date): number | undefined {
  const price = priceIn(p, currency);
  if (!price) return undefined;
  return saleRunning(p, now) && price.salePriceMinor !== null ? price.salePriceMinor : price.priceMinor;
}

/** Price per credit granted (bonus included), in minor units. */
function perCredit(priceMinor: number, p: Priced): number {
  return priceMinor / Math.max(1, p.credits + p.bonusCredits);
}

/**
 * What one credit costs now in this currency (decision 380): the price now (a running sale's) over the credits it
 * grants, bonus included (a plan's per period). Undefined for an offer with a per-person limit, which "best value" and
 * the claim "credits from … each" leave out (not everyone can keep buying it), and where it is not sold in `currency`.
 */
export function perCreditNow(p: Priced, currency: string, now: Date): number | undefined {
  if (p.kind === "flash_sale" || p.perUserLimit !== null) return undefined;
  const price = priceNow(p, currency, now);
  return price === undefined ? undefined : perCredit(price, p);
}

/**
 * Per currency, the id of the product that gives the most credits for the money now: packs and plans alike, at the
 * price each costs now (decision 380); none in a currency where fewer than two compete, and a tie keeps the one listed
 * first. The "best value" badge is computed from the prices, never typed.
 */
export function bestValue(list: (Priced & { id: number })[], now: Date): Map<Currency, number> {
  const best = new Map<Currency, { id: number; perCredit: number; rivals: number }>();
  for (const p of list) {
    for (const { currency } of pricesOf(p)) {
      const mine = perCreditNow(p, currency, now);
      if (mine === undefined) continue;
      const held = best.get(currency);
      const rivals = (held?.rivals ?? 0) + 1;
      best.set(currency, !held || mine < held.perCredit ? { id: p.id, perCredit: mine, rivals } : { ...held, rivals });
    }
  }
  return new Map([...best].filter(([, b]) => b.rivals >= 2).map(([currency, b]) => [currency, b.id]));
}

/**
 * The regular packs (and plans) that beat a sale per credit in one of its currencies: a sale that one of them beats is
 * no deal and may not be offered as one (issue 31 item 2). Prices compare only within a currency. Empty when the sale
 * is a real deal in every currency.
 */
export function packsBeatingSale<P extends Priced & { id: number }>(sale: Priced & { id?: number }, list: P[]): P[] {
  const rivals = list.filter((p) => p.id !== sale.id && p.kind !== "flash_sale");
  return rivals.filter((p) =>
    pricesOf(sale).some((s) => {
      const theirs = priceIn(p, s.currency);
      return s.salePriceMinor !== null && theirs !== undefined && perCredit(theirs.priceMinor, p) <= perCredit(s.salePriceMinor, sale);
    }),
  );
}
