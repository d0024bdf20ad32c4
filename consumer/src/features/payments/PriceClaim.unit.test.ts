import { describe, expect, it } from "vitest";
import { cheapestPerCredit, type Product } from "./payments.api.ts";

const product = (code: string, credits: number, price: number, currency: string, o: Partial<Product> = {}) =>
  ({ code, kind: "credits", credits, bonus_credits: 0, was_price: null, price, currency, per_credit: price / credits, ...o }) as Product;
const code = (p: Product | undefined) => p?.code;

describe("'credits from X each' and the checkout's preselection read the server's price per credit (decision 380)", () => {
  it("never names a product in another currency, however few of its minor units a credit costs", () => {
    // 1,000 yen for 500 credits is 2 yen a credit: fewer minor units than any dollar pack, but not dollars
    const list = [product("p50", 50, 2999, "USD"), product("p500", 500, 24999, "USD"), product("y500", 500, 1000, "JPY")];
    expect(code(cheapestPerCredit(list, "USD"))).toBe("p500");
    expect(code(cheapestPerCredit(list, "JPY"))).toBe("y500");
  });

  it("names the currency the shop shows when none is priced in the visitor's (issue 46 item 17), nothing when nothing counts", () => {
    expect(code(cheapestPerCredit([product("p50", 50, 2999, "USD"), product("p500", 500, 24999, "USD")], "JPY"))).toBe("p500");
    // an offer limited per person has no price per credit: it is neither claimed nor preselected
    expect(cheapestPerCredit([product("sale", 4, 199, "USD", { per_credit: null })], "USD")).toBeUndefined();
  });

  it("counts a plan for the claim, never for the preselection, which takes the cheapest one-time pack", () => {
    const list = [product("p500", 500, 24999, "USD"), product("plan", 300, 14999, "USD", { kind: "subscription" })];
    expect(code(cheapestPerCredit(list, "USD"))).toBe("plan");
    expect(code(cheapestPerCredit(list, "USD", { packsOnly: true }))).toBe("p500");
  });
});
