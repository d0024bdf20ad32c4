import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import { sheetRows, spreadsheet } from "../../../../tests/fixtures/spreadsheets.ts";
import type { StaffRole } from "../../db/generated/enums.ts";
import { DUPLICATE_CODE } from "./imports.products.ts";

let t: TestApp;
const as: Partial<Record<StaffRole, StaffLogin>> = {};
let header: string[];
beforeAll(async () => {
  t = await createTestApp();
  for (const role of ["admin", "marketer", "support", "moderator"] as const) as[role] = await staffMember(t, [role]);
  const template = await t.http
    .get("/admin/api/imports/products/template")
    .set("token", as.marketer!.token)
    .buffer(true)
    .parse(binary as never)
    .expect(200);
  header = sheetRows(template.body as Buffer)[0] as string[];
}, 60_000);
afterAll(() => t.close());

function binary(res: NodeJS.ReadableStream, done: (err: Error | null, body: unknown) => void) {
  const chunks: Buffer[] = [];
  res.on("data", (c: Buffer) => chunks.push(c));
  res.on("end", () => done(null, Buffer.concat(chunks)));
}

/** A sheet of the template's columns; a product's price goes in its USD columns. */
function sheet(products: Record<string, unknown>[]): Buffer {
  const priced = (p: Record<string, unknown>): Record<string, unknown> => {
    const { price, salePrice, ...rest } = p;
    return { ...rest, "prices.USD.priceMinor": price, "prices.USD.salePriceMinor": salePrice };
  };
  return spreadsheet([header, ...products.map(priced).map((p) => header.map((c) => p[c] ?? null))]);
}
const preview = (who: StaffLogin, file: Buffer) =>
  t.http.post("/admin/api/imports/products/preview").set("token", who.token).attach("file", file, "products.xlsx");
const apply = (who: StaffLogin, file: Buffer, digest: string) =>
  t.http.post("/admin/api/imports/products/apply").set("token", who.token).field("digest", digest).attach("file", file, "products.xlsx");
const day = 86_400_000;
/** A sale of this price running from yesterday to tomorrow. */
const sale = (salePrice: number) => ({ salePrice, saleStartsAt: new Date(Date.now() - day), saleEndsAt: new Date(Date.now() + day) });

describe("products from a spreadsheet (issue 35 item 8)", () => {
  it("has the product form's columns, names per language included", () => {
    expect(header).toEqual(
      expect.arrayContaining(["code", "name", "names.ja", "names.ru", "kind", "credits", "bonusCredits", "channels", "active", "sortOrder"]),
    );
    expect(header).not.toContain("names");
  });

  it("previews every row with the form's errors and writes nothing; apply refuses the file until they are fixed", async () => {
    const file = sheet([
      { code: "pack_10", name: "10 credits", credits: 10, price: 199 },
      { code: "pack_20", name: null, credits: 20, price: 299 },
      { code: "pack_30", name: "30 credits", credits: "lots", price: 399 },
      { code: "pack_10", name: "10 again", credits: 10, price: 199 },
      { code: "plan_x", name: "Plan", kind: "subscription", credits: 100, price: 999 },
      { code: "flash_x", name: "Flash", credits: 10, price: 500, ...sale(600) },
    ]);
    const res = await preview(as.marketer!, file).expect(200);
    expect(res.body).toMatchObject({ list: "products", valid: 1, invalid: 5, columns: header });
    const errors = Object.fromEntries(res.body.rows.map((r: { row: number; errors: string[] }) => [r.row, r.errors.join("; ")]));
    expect(errors[2]).toBe("");
    expect(errors[3]).toMatch(/^name: /);
    expect(errors[4]).toMatch(/^credits: credits must be a whole number/);
    expect(errors[5]).toBe(DUPLICATE_CODE);
    expect(errors[6]).toBe("A plan needs its renewal interval in days");
    expect(errors[7]).toBe("The sale price must be below the regular price");
    await apply(as.marketer!, file, res.body.digest).expect(400);
    expect(await t.db.product.count()).toBe(0);
    expect(await t.db.auditLog.count({ where: { resource: { in: ["Product", "SpreadsheetImport"] } } })).toBe(0);
  });

  it("creates new codes and changes known ones as a whole, audited, once however often the file is applied", async () => {
    const first = sheet([{ code: "pack_100", name: "100 credits", credits: 100, price: 999, sortOrder: 10 }]);
    const digest = (await preview(as.marketer!, first).expect(200)).body.digest;
    expect((await apply(as.marketer!, first, digest).expect(200)).body).toEqual({ list: "products", applied: 1, unchanged: 0 });
    const created = await t.db.product.findUniqueOrThrow({ where: { code: "pack_100" } });

    const second = sheet([
      {
        code: "pack_100",
        name: "100 credits",
        "names.ru": "100 кредитов",
        credits: 100,
        bonusCredits: 5,
        price: 899,
        channels: "default, promo",
        active: "no",
        sortOrder: 10,
      },
      { code: "pack_500", name: "500 credits", "names.ja": "500クレジット", credits: 500, price: 3999, kind: "credits", active: true },
    ]);
    const d2 = (await preview(as.admin!, second).expect(200)).body.digest;
    const results = await Promise.all(Array.from({ length: 4 }, () => apply(as.admin!, second, d2)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.reduce((n, r) => n + r.body.applied, 0)).toBe(2);
    const changed = await t.db.product.findUniqueOrThrow({ where: { code: "pack_100" } });
    expect(changed).toMatchObject({ id: created.id, names: { ru: "100 кредитов" }, bonusCredits: 5, channels: ["default", "promo"], active: false });
    expect(await t.db.product.findUniqueOrThrow({ where: { code: "pack_500" } })).toMatchObject({ names: { ja: "500クレジット" }, credits: 500, active: true });
    const audits = await t.db.auditLog.findMany({ where: { resource: "Product" }, orderBy: { id: "asc" } });
    expect(audits.map((a) => [a.action, a.resourceId, a.staffId])).toEqual([
      ["create", String(created.id), as.marketer!.staffId],
      ["update", String(created.id), as.admin!.staffId],
      ["create", expect.any(String), as.admin!.staffId],
    ]);
    expect(await t.db.auditLog.count({ where: { action: "import", resource: "SpreadsheetImport", resourceId: "products" } })).toBe(5);
  });

  it("applies in one transaction: a row refused when written leaves the rows before it unwritten", async () => {
    // each row passes its preview alone; written in order, the new pack makes the sale after it no deal
    const file = sheet([
      { code: "cheap_1000", name: "1000 credits", credits: 1000, price: 1000, active: "yes" },
      { code: "flash_100", name: "Flash", credits: 100, price: 5000, ...sale(4000) },
    ]);
    await t.db.product.updateMany({ data: { active: false } });
    const res = await preview(as.marketer!, file).expect(200);
    expect(res.body.invalid).toBe(0);
    const refused = await apply(as.marketer!, file, res.body.digest).expect(400);
    expect(refused.body.msg).toMatch(/^This sale is no deal/);
    expect(await t.db.product.count({ where: { code: { in: ["cheap_1000", "flash_100"] } } })).toBe(0);
  });

  it("is for those who may edit products: support and moderators may not", async () => {
    const file = sheet([{ code: "pack_x", name: "X", credits: 1, price: 100 }]);
    for (const role of ["support", "moderator"] as const) {
      await t.http.get("/admin/api/imports/products/template").set("token", as[role]!.token).expect(403);
      await preview(as[role]!, file).expect(403);
      await apply(as[role]!, file, "0".repeat(64)).expect(403);
    }
    expect(await t.db.product.count({ where: { code: "pack_x" } })).toBe(0);
  });
});
