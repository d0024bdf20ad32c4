import { describe, expect, it } from "vitest";
import { CURRENCIES } from "../../contract/currencies.ts";
import { bestValue, packsBeatingSale, perCreditNow, priceIn, pricesOf, saleRunning } from "./products.pricing.ts";
import { catalogue } from "./products.seed.ts";

const now = new Date("2026-11-27T00:00:00Z");
const seeded = catalogue(now).map((p, i) => ({
  id: i + 1,
  code: p.code,
  kind: p.kind ?? "credits",
  credits: p.credits,
  bonusCredits: p.bonusCredits ?? 0,
  prices: p.prices,
  saleStartsAt: (p.saleStartsAt as Date | undefined) ?? null,
  saleEndsAt: (p.saleEndsAt as Date | undefined) ?? null,
  perUserLimit: (p.perUserLimit as number | undefined) ?? null,
}));
type Seeded = (typeof seeded)[number];
const codesOf = (list: Seeded[], best: Map<string, number>, currency: string) => list.filter((p) => best.get(currency) === p.id).map((p) => p.code);

describe("the seeded catalogue (issue 31 item 2)", () => {
  it("runs SPEC's sale: $1.99 for one 720P 10-second video, was $4.00, its regular price", () => {
    const sale = seeded.find((p) => saleRunning(p, now));
    expect(sale).toMatchObject({ code: "flash_video", credits: 4 });
    expect(sale && priceIn(sale, "USD")).toEqual({ currency: "USD", priceMinor: 400, salePriceMinor: 199 });
  });

  it("calls nothing a deal that a regular pack or plan beats per credit, in any of its currencies", () => {
    const sales = seeded.filter((p) => pricesOf(p).some((e) => e.salePriceMinor !== null));
    expect(sales.length).toBeGreaterThan(0);
    for (const sale of sales) expect(packsBeatingSale(sale, seeded).map((p) => p.code)).toEqual([]);
  });

  // decision 380: the plan counts, at what everything costs now; 149.99 for 300 credits is 49.997 cents a credit, under the
  // 500 pack's 49.998 (and 44.97 roubles under 44.98); in euros the 500 pack is cheaper (47.998 against 48.33)
  it("badges as best value what gives the most credits for the money now, plans included, in each currency", () => {
    const best = bestValue(seeded, now);
    expect(codesOf(seeded, best, "USD")).toEqual(["plan_monthly"]);
    expect(codesOf(seeded, best, "RUB")).toEqual(["plan_monthly"]);
    expect(codesOf(seeded, best, "EUR")).toEqual(["credits_500"]);
    expect(CURRENCIES.filter((c) => best.has(c))).toEqual(["USD", "EUR", "RUB"]);
  });

  it("never badges an offer limited per person, however cheap; a pack's running sale counts at its sale price", () => {
    // the flash sale (3 per person) is 49.75 cents a credit while it runs, under everything else: still not best value
    expect(perCreditNow(seeded[0], "USD", now)).toBeUndefined();
    expect(codesOf(seeded, bestValue(seeded, now), "USD")).toEqual(["plan_monthly"]);
    // the same sale open to everyone counts, at its sale price while the sale runs and at its regular price after
    const open = seeded.map((p) => (p.code === "flash_video" ? { ...p, perUserLimit: null } : p));
    expect(codesOf(open, bestValue(open, now), "USD")).toEqual(["flash_video"]);
    const after = new Date(now.getTime() + 100 * 3_600_000);
    expect(codesOf(open, bestValue(open, after), "USD")).toEqual(["plan_monthly"]);
  });

  it("compares packs only within a currency: a pack in another currency neither takes nor shares the badge alone", () => {
    // 1,000 yen for 500 credits is fewer minor units per credit than any dollar pack, but units of two currencies do not compare
    const yen = { ...seeded[3], id: 100, code: "jpy_500", prices: [{ currency: "JPY", priceMinor: 1000, salePriceMinor: null }] };
    const best = bestValue([...seeded, yen], now);
    expect(codesOf([...seeded, yen], best, "USD")).toEqual(["plan_monthly"]);
    expect(best.has("JPY")).toBe(false);
    const yen2 = { ...yen, id: 101, code: "jpy_50", credits: 50, prices: [{ currency: "JPY", priceMinor: 500, salePriceMinor: null }] };
    const both = bestValue([...seeded, yen, yen2], now);
    expect(codesOf([...seeded, yen, yen2], both, "JPY")).toEqual(["jpy_500"]);
    expect(codesOf([...seeded, yen, yen2], both, "USD")).toEqual(["plan_monthly"]);
  });

  it("finds the packs that would beat a sale priced too high in one currency only", () => {
    const dear = { ...seeded[0], prices: pricesOf(seeded[0]).map((e) => (e.currency === "RUB" ? { ...e, salePriceMinor: 35900 } : e)) };
    expect(packsBeatingSale(dear, seeded).map((p) => p.code)).toEqual(["credits_50", "credits_150", "credits_500", "plan_monthly"]);
  });
});
