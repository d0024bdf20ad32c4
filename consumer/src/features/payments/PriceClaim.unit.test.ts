import { describe, expect, it } from "vitest";
import { cheapestCredit } from "./PriceClaim.tsx";
import type { Product } from "./payments.api.ts";

const pack = (credits: number, price: number, currency: string) =>
  ({ kind: "credits", credits, bonus_credits: 0, was_price: null, price, currency }) as Product;

describe("'credits from X each' is claimed in the visitor's currency only (docs/decisions/300)", () => {
  it("never names a pack in another currency, however few of its minor units a credit costs", () => {
    // 1,000 yen for 500 credits is 2 yen a credit: fewer minor units than any dollar pack, but not dollars
    const list = [pack(50, 2999, "USD"), pack(500, 24999, "USD"), pack(500, 1000, "JPY")];
    expect(cheapestCredit(list, "USD")).toEqual({ minor: 24999 / 500, currency: "USD" });
    expect(cheapestCredit(list, "JPY")).toEqual({ minor: 2, currency: "JPY" });
  });

  it("names the currency the shop shows when none is priced in the visitor's (issue 46 item 17), nothing when nothing regular is on sale", () => {
    expect(cheapestCredit([pack(50, 2999, "USD"), pack(500, 24999, "USD")], "JPY")).toEqual({ minor: 24999 / 500, currency: "USD" });
    expect(cheapestCredit([{ ...pack(4, 199, "USD"), was_price: 400 }], "USD")).toBeNull();
  });
});
