import { describe, expect, it } from "vitest";
import { bestValue, packsBeatingSale, saleRunning } from "./products.pricing.ts";
import { catalogue } from "./products.seed.ts";

const now = new Date("2026-11-27T00:00:00Z");
const seeded = catalogue(now).map((p, i) => ({
  id: i + 1,
  code: p.code,
  kind: p.kind ?? "credits",
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
    expect(bestValue(seeded)?.code).toBe("credits_500");
  });

  it("finds the packs that would beat a sale priced too high", () => {
    const dear = { ...seeded[0], salePriceMinor: 399 };
    expect(packsBeatingSale(dear, seeded).map((p) => p.code)).toEqual(["credits_50", "credits_150", "credits_500", "plan_monthly"]);
  });
});
