import { describe, expect, it } from "vitest";
import { contrastRatio, DEFAULT_BRAND, MIN_CONTRAST, PAGE_BACKGROUND } from "./brand.ts";

describe("contrastRatio (WCAG 2)", () => {
  it("is 21:1 for black on white, 1:1 for a colour on itself, the same either way round", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#a78bfa", "#a78bfa")).toBe(1);
    expect(contrastRatio("#ffffff", "#777777")).toBeCloseTo(contrastRatio("#777777", "#ffffff"), 10);
  });

  it("matches published values: #777777 on white 4.48:1 (just under AA), #767676 4.54:1", () => {
    expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it("today's accents read on the page background (the defaults pass their own check)", () => {
    expect(contrastRatio(DEFAULT_BRAND.primary, PAGE_BACKGROUND)).toBeGreaterThan(MIN_CONTRAST);
    expect(contrastRatio(DEFAULT_BRAND.secondary, PAGE_BACKGROUND)).toBeGreaterThan(MIN_CONTRAST);
  });
});
