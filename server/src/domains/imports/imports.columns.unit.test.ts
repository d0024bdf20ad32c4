import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sheetColumns } from "./imports.columns.ts";

// the shape products take with a price per currency (docs/decisions/300): the import follows it with no change
const form = z.strictObject({
  code: z.string(),
  names: z.strictObject({ ja: z.string().optional(), ru: z.string().optional() }).default({}),
  prices: z.array(z.strictObject({ currency: z.enum(["USD", "EUR"]), priceMinor: z.number(), salePriceMinor: z.number().nullable().default(null) })),
  saleEndsAt: z.preprocess((v) => v, z.coerce.date().nullable()).default(null),
  channels: z.array(z.string()).default([]),
  active: z.boolean().default(true),
});

describe("a console form's body as spreadsheet columns", () => {
  const { names, bodyOf } = sheetColumns(form);

  it("names a column per field, per language of a translated text, and per choice of a keyed list", () => {
    expect(names).toEqual([
      "code",
      "names.ja",
      "names.ru",
      "prices.USD.priceMinor",
      "prices.USD.salePriceMinor",
      "prices.EUR.priceMinor",
      "prices.EUR.salePriceMinor",
      "saleEndsAt",
      "channels",
      "active",
    ]);
  });

  it("makes a row the body the form would send, leaving empty cells to the schema's defaults", () => {
    const body = bodyOf({
      code: "pack",
      "names.ja": null,
      "names.ru": "Пакет",
      "prices.USD.priceMinor": 999,
      "prices.USD.salePriceMinor": null,
      "prices.EUR.priceMinor": null,
      "prices.EUR.salePriceMinor": null,
      saleEndsAt: 46353.5,
      channels: "default, promo,",
      active: "No",
    });
    expect(body).toEqual({
      code: "pack",
      names: { ru: "Пакет" },
      prices: [{ currency: "USD", priceMinor: 999 }],
      saleEndsAt: new Date("2026-11-27T12:00:00.000Z"),
      channels: ["default", "promo"],
      active: false,
    });
    expect(form.parse(body).prices).toEqual([{ currency: "USD", priceMinor: 999, salePriceMinor: null }]);
    expect(bodyOf({ code: "x", active: "TRUE" })).toEqual({ code: "x", active: true });
  });
});
