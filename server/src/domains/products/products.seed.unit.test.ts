import { describe, expect, it } from "vitest";
import { bestValue, packsBeatingSale, saleRunning } from "./products.pricing.ts";
import { catalogue } from "./products.seed.ts";

const now = new Date("2026-11-27T00:00:00Z");
const seeded = catalogue(now).map((p, i) => ({
  id: i + 1,
  code: p.code,
  kind: p.kind ?? "credits",
  currency: p.currency ?? "USD",
  credits: p.credits,
  bonusCredits: p.bonusCredits ?? 0,
  priceMinor: p.priceMinor,
  salePriceMinor: p.salePriceMinor ?? null,
  saleStartsAt: (p.saleStartsAt as Date | undefined) ?? null,
  saleEndsAt: (p.saleEndsAt as Date | undefined) ?? null,
}));

describe("the seeded catalogue (issue 31 item 2)", () => {
  it("runs SPEC's sale: $1.99 for one 720P 10-second video, was $4.00, its regular price", () => {
    const sale = seeded.find((p) => saleRunning(p, now));
    expect(sale).toMatchObject({ code: "flash_video", salePriceMinor: 199, priceMinor: 400, credits: 4 });
  });

  it("calls nothing a deal that a regular pack or plan beats per credit", () => {
    const sales = seeded.filter((p) => p.salePriceMinor !== null);
    expect(sales.length).toBeGreaterThan(0);
    for (const sale of sales) expect(packsBeatingSale(sale, seeded).map((p) => p.code)).toEqual([]);
  });

  it("badges as best value the regular pack with the most credits for the money", () => {
    const best = bestValue(seeded);
    expect(seeded.filter((p) => best.has(p.id)).map((p) => p.code)).toEqual(["credits_500"]);
  });

  it("compares packs only within a currency: a pack in another currency neither takes nor shares the badge alone", () => {
    // 1,000 euro cents for 500 credits is fewer cents per credit than any dollar pack, but cents of two currencies do not compare
    const euro = { ...seeded[3], id: 100, code: "eur_500", currency: "EUR", priceMinor: 1000 };
    const best = bestValue([...seeded, euro]);
    expect([...seeded, euro].filter((p) => best.has(p.id)).map((p) => p.code)).toEqual(["credits_500"]);
    const euro2 = { ...euro, id: 101, code: "eur_50", credits: 50, priceMinor: 500 };
    const both = bestValue([...seeded, euro, euro2]);
    expect([...seeded, euro, euro2].filter((p) => both.has(p.id)).map((p) => p.code)).toEqual(["credits_500", "eur_500"]);
  });

  it("finds the packs that would beat a sale priced too high", () => {
    const dear = { ...seeded[0], salePriceMinor: 399 };
    expect(packsBeatingSale(dear, seeded).map((p) => p.code)).toEqual(["credits_50", "credits_150", "credits_500", "plan_monthly"]);
  });
});
