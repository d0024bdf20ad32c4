import { describe, expect, it } from "vitest";
import type { ProductsAdminService } from "../products/products.admin.service.ts";
import { productsList } from "./imports.products.ts";

describe("products import template", () => {
  it("has an example row that the product form's schema accepts, priced in its own columns", () => {
    const list = productsList({} as ProductsAdminService);
    const cells = Object.fromEntries(list.columns.map((c, i) => [c, list.example[i]]));
    const parsed = list.schema.safeParse(cells);
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data).toMatchObject({ code: "credits_100", prices: [{ currency: "USD", priceMinor: 999 }] });
  });
});
