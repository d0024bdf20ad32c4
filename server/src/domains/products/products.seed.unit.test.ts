import { describe, expect, it } from "vitest";
import { CURRENCIES } from "../../contract/currencies.ts";
import { bestValue, packsBeatingSale, priceIn, pricesOf, saleRunning } from "./products.pricing.ts";
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

  it("badges as best value the regular pack with the most credits for the money, in each currency", () => {
    const best = bestValue(seeded);
    for (const currency of ["USD", "EUR", "RUB"]) expect(codesOf(seeded, best, currency)).toEqual(["credits_500"]);
    expect(CURRENCIES.filter((c) => best.has(c))).toEqual(["USD", "EUR", "RUB"]);
  });

  it("compares packs only within a currency: a pack in another currency neither takes nor shares the badge alone", () => {
    // 1,000 yen for 500 credits is fewer minor units per credit than any dollar pack, but units of two currencies do not compare
    const yen = { ...seeded[3], id: 100, code: "jpy_500", prices: [{ currency: "JPY", priceMinor: 1000, salePriceMinor: null }] };
    const best = bestValue([...seeded, yen]);
    expect(codesOf([...seeded, yen], best, "USD")).toEqual(["credits_500"]);
    expect(best.has("JPY")).toBe(false);
    const yen2 = { ...yen, id: 101, code: "jpy_50", credits: 50, prices: [{ currency: "JPY", priceMinor: 500, salePriceMinor: null }] };
    const both = bestValue([...seeded, yen, yen2]);
    expect(codesOf([...seeded, yen, yen2], both, "JPY")).toEqual(["jpy_500"]);
    expect(codesOf([...seeded, yen, yen2], both, "USD")).toEqual(["credits_500"]);
  });

  it("finds the packs that would beat a sale priced too high in one currency only", () => {
    const dear = { ...seeded[0], prices: pricesOf(seeded[0]).map((e) => (e.currency === "RUB" ? { ...e, salePriceMinor: 35900 } : e)) };
    expect(packsBeatingSale(dear, seeded).map((p) => p.code)).toEqual(["credits_50", "credits_150", "credits_500", "plan_monthly"]);
  });
});
