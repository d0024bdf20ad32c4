import type { Product } from "../../db/generated/client.ts";

/** What the pricing rules read of a product. */
export type Priced = Pick<Product, "kind" | "credits" | "bonusCredits" | "priceMinor" | "salePriceMinor" | "saleStartsAt" | "saleEndsAt">;

/** The product's sale window is open now (docs/decisions/266): start and end set, start passed, end not. */
export function saleRunning(p: Priced, now: Date): boolean {
  return p.salePriceMinor !== null && p.saleStartsAt !== null && p.saleEndsAt !== null && p.saleStartsAt <= now && p.saleEndsAt > now;
}

/** What one costs now: the sale price while the sale runs, else the regular price. */
export function priceNow(p: Priced, now: Date): number {
  return saleRunning(p, now) && p.salePriceMinor !== null ? p.salePriceMinor : p.priceMinor;
}

/** Price per credit granted (bonus included), in minor units. */
function perCredit(priceMinor: number, p: Priced): number {
  return priceMinor / Math.max(1, p.credits + p.bonusCredits);
}

/** Regular credit packs: what any claim of a deal is measured against. */
const regularPacks = <P extends Priced>(list: P[]) => list.filter((p) => p.kind === "credits");

/**
 * The ids of the regular packs that give the most credits for the money, one per currency (cents of two currencies do
 * not compare), none in a currency with fewer than two packs: the "best value" badge is computed from the prices,
 * never typed.
 */
export function bestValue(list: (Priced & { id: number; currency: string })[]): Set<number> {
  const byCurrency = new Map<string, (Priced & { id: number })[]>();
  for (const p of regularPacks(list)) byCurrency.set(p.currency, [...(byCurrency.get(p.currency) ?? []), p]);
  const best = [...byCurrency.values()]
    .filter((packs) => packs.length >= 2)
    .map((packs) => packs.reduce((b, p) => (perCredit(p.priceMinor, p) < perCredit(b.priceMinor, b) ? p : b)));
  return new Set(best.map((p) => p.id));
}

/**
 * The regular packs (and plans) that beat a sale per credit: a sale that one of them beats is no deal and may not
 * be offered as one (issue 31 item 2). Empty when the sale is a real deal.
 */
export function packsBeatingSale<P extends Priced & { id: number }>(sale: Priced & { id?: number }, list: P[]): P[] {
  if (sale.salePriceMinor === null) return [];
  const salePerCredit = perCredit(sale.salePriceMinor, sale);
  return list.filter((p) => p.id !== sale.id && p.kind !== "flash_sale" && perCredit(p.priceMinor, p) <= salePerCredit);
}
