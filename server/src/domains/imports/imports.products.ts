import { z } from "zod";
import { productBody, type ProductBody } from "../products/products.admin.schema.ts";
import type { ProductsAdminService } from "../products/products.admin.service.ts";
import { sheetColumns } from "./imports.columns.ts";
import type { ImportListSpec } from "./imports.list-spec.ts";
import type { Cell } from "./imports.sheet.ts";

/** The template's example, by column: a column the form no longer has is left out, a new one is empty. */
const EXAMPLE: Record<string, Cell> = {
  code: "credits_100",
  name: "100 credits",
  "names.ru": "100 кредитов",
  kind: "credits",
  credits: 100,
  bonusCredits: 10,
  "prices.USD.priceMinor": 999,
  channels: "default, promo",
  active: true,
  sortOrder: 10,
};

export const DUPLICATE_CODE = "This code is on an earlier row of the sheet";

/**
 * Credit packs, plans and sales from a sheet (issue 35 item 8, docs/decisions/301): its columns are the console form's
 * body (products.admin.schema.ts) and each row is checked by that schema and by the rules the form is refused for; a
 * row of a known code changes that product as a whole, another code is a new one, through the products domain.
 */
export function productsList(products: ProductsAdminService): ImportListSpec<ProductBody> {
  const columns = sheetColumns(productBody);
  return {
    columns: columns.names,
    schema: z.preprocess((cells) => columns.bodyOf(cells as Record<string, Cell>), productBody),
    example: columns.names.map((c) => EXAMPLE[c] ?? null),
    async check(rows) {
      const ids = await products.idsByCode([...new Set(rows.map((r) => r.data.code))]);
      const seen = new Set<string>();
      const problems = new Map<number, string>();
      for (const { row, data } of rows) {
        const problem = seen.has(data.code) ? DUPLICATE_CODE : await products.problemOf(data, ids.get(data.code));
        seen.add(data.code);
        if (problem) problems.set(row, problem);
      }
      return problems;
    },
    async write(staffId, rows, _digest, tx) {
      let applied = 0;
      for (const { data } of rows) if ((await products.saveInImport(staffId, data, tx)) !== "unchanged") applied++;
      return { applied, unchanged: rows.length - applied };
    },
  };
}
