import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createInstance } from "i18next";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { describe, expect, it } from "vitest";
import en from "../../i18n/locales/en.json";
import ru from "../../i18n/locales/ru.json";
import { ProductTerms } from "./ProductTerms.tsx";
import type { Product } from "./payments.api.ts";

const pack = (over: Partial<Product>) => ({ kind: "credits", credits: 100, bonus_credits: 0, interval_days: null, ...over }) as Product;

function render(product: Product, lng = "en"): string {
  const i18n = createInstance();
  void i18n.use(initReactI18next).init({ lng, initAsync: false, resources: { en: { translation: en }, ru: { translation: ru } } });
  return renderToStaticMarkup(createElement(I18nextProvider, { i18n }, createElement(ProductTerms, { product })));
}

describe("a product's bonus credits are shown where it is bought (docs/decisions/265)", () => {
  it("names a pack's bonus, in the reader's plural", () => {
    expect(render(pack({ bonus_credits: 50 }))).toContain("+50 bonus credits");
    expect(render(pack({ bonus_credits: 1 }))).toContain("+1 bonus credit<");
    expect(render(pack({ bonus_credits: 3 }), "ru")).toContain("+3 бонусных кредита");
  });

  it("names a plan's bonus beside its credits", () => {
    const plan = render(pack({ kind: "subscription", credits: 500, bonus_credits: 20, interval_days: 30 }));
    expect(plan).toContain('data-testid="plan-credits"');
    expect(plan).toContain("+20 bonus credits");
  });

  it("says nothing of a bonus a product does not give", () => {
    expect(render(pack({}))).not.toContain("bonus");
  });
});
