import { z } from "zod";
import { describe, expect, it } from "vitest";
import { coercedFields, jsonDate } from "./coercion.ts";

describe("coercedFields", () => {
  it("finds a coercing field under objects, lists, wrappers and preprocessing, and none in a strict schema", () => {
    const body = z.object({
      amount: z.coerce.number(),
      nested: z.object({ at: z.coerce.date().optional() }),
      list: z.array(z.object({ price: z.preprocess((v) => v, z.coerce.number().nullable()) })),
      either: z.union([z.string(), z.coerce.boolean()]).default(""),
    });
    expect(coercedFields(body).sort()).toEqual(["amount", "either", "list[].price", "nested.at"]);
    expect(coercedFields(z.object({ amount: z.number().int(), at: jsonDate("bad"), list: z.array(z.number()) }))).toEqual([]);
  });
});

describe("jsonDate", () => {
  const at = jsonDate("at must be a date");
  it("takes an ISO 8601 string or a Date", () => {
    expect(at.parse("2026-12-07T10:00:00.000Z").toISOString()).toBe("2026-12-07T10:00:00.000Z");
    expect(at.parse("2026-12-07").toISOString()).toBe("2026-12-07T00:00:00.000Z");
    expect(at.parse(new Date(0)).getTime()).toBe(0);
  });
  it("refuses a number, a list, other text and an impossible date", () => {
    for (const bad of [0, 1733565600000, [2026], "1e3", "tomorrow", "2026-13-45"]) expect(at.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});
