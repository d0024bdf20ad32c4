import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { staffMember, type StaffLogin } from "../../../../tests/staff-utils.ts";
import type { StaffRole } from "../../db/generated/enums.ts";
import { seedProducts } from "./products.seed.ts";

let t: TestApp;
const as: Partial<Record<StaffRole, StaffLogin>> = {};
const id: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedProducts(t.db);
  for (const p of await t.db.product.findMany()) id[p.code] = p.id;
  for (const role of ["admin", "marketer", "support", "moderator"] as const) as[role] = await staffMember(t, [role]);
}, 60_000);
afterAll(() => t.close());

const put = (role: StaffRole, productId: number, body: object) => t.http.put(`/admin/api/products/${productId}`).set("token", as[role]!.token).send(body);
const order = (token: string, productId: number) =>
  t.http.post("/api/order/createOrderAndPay").set("token", token).send({ product_id: productId, provider: "sandbox", agree_terms: true });
/** credits_50's seeded prices, the dollar one changed */
const dollars = (priceMinor: number | string, salePriceMinor: number | null = null) => [
  { currency: "USD", priceMinor, salePriceMinor },
  { currency: "EUR", priceMinor: 2799, salePriceMinor: salePriceMinor && 2400 },
  { currency: "RUB", priceMinor: 269000, salePriceMinor: salePriceMinor && 230000 },
];
const usd = (priceMinor: number) => [{ currency: "USD", priceMinor }];

describe("console products (issue 35 item 1)", () => {
  it("marketers and admins list, create and change products; support and moderators may not; changes are audited", async () => {
    for (const role of ["support", "moderator"] as const) {
      await t.http.get("/admin/api/products").set("token", as[role]!.token).expect(403);
      expect((await put(role, id.credits_50, { sortOrder: 99 })).status).toBe(403);
      await t.http
        .post("/admin/api/products")
        .set("token", as[role]!.token)
        .send({ code: "x1", name: "X", credits: 1, prices: usd(100) })
        .expect(403);
    }
    const list = await t.http.get("/admin/api/products").set("token", as.marketer!.token).expect(200);
    // the plan counts (decision 380): a credit costs less on it in dollars and roubles, on the 500 pack in euros
    expect(list.body.filter((p: { bestValueIn: string[] }) => p.bestValueIn.length).map((p: { code: string }) => p.code)).toEqual([
      "credits_500",
      "plan_monthly",
    ]);
    expect(list.body.find((p: { code: string }) => p.code === "credits_500").bestValueIn).toEqual(["EUR"]);
    expect(list.body.find((p: { code: string }) => p.code === "plan_monthly").bestValueIn).toEqual(["USD", "RUB"]);
    expect(list.body.find((p: { code: string }) => p.code === "flash_video")).toMatchObject({ saleRunning: true });
    expect(list.body.find((p: { code: string }) => p.code === "flash_video").prices).toContainEqual({ currency: "USD", salePriceMinor: 199, priceMinor: 400 });
    const create = (priceMinor: number) =>
      t.http
        .post("/admin/api/products")
        .set("token", as.admin!.token)
        .send({ code: "credits_1000", name: "1000 credits", names: { ja: "1000クレジット" }, credits: 1000, prices: usd(priceMinor), sortOrder: 35 });
    // $0.45 a credit would beat the running sale ($1.99 for 4 credits), which would then be no deal
    expect((await create(45000)).body).toMatchObject({
      code: 400,
      msg: "At this price a sale would be no deal: this pack would cost the same or less per credit (flash_video)",
    });
    const created = await create(49800).expect(200);
    // best value in dollars only: the euro and rouble packs are compared among themselves
    expect(created.body).toMatchObject({ code: "credits_1000", names: { ja: "1000クレジット" }, bestValueIn: ["USD"] });
    await put("marketer", created.body.id, { active: false }).expect(200);
    const audit = await t.db.auditLog.findMany({ where: { resource: "Product", resourceId: String(created.body.id) }, orderBy: { id: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["create", "update"]);
  });

  it("refuses a sale that a regular pack beats, an incomplete or reversed window, and a sale price not below the price", async () => {
    const sale = (body: object) => put("marketer", id.credits_50, body);
    const start = new Date(Date.now() - 60_000).toISOString();
    const end = new Date(Date.now() + 3_600_000).toISOString();
    expect((await sale({ prices: dollars(2999, 2500) })).body).toMatchObject({ code: 400, msg: "A sale needs a sale price, a start and an end" });
    expect((await sale({ prices: dollars(2999, 2500), saleStartsAt: end, saleEndsAt: start })).body).toMatchObject({ msg: "A sale must end after it starts" });
    expect((await sale({ prices: dollars(2999, 3500), saleStartsAt: start, saleEndsAt: end })).body).toMatchObject({
      msg: "The sale price must be below the regular price",
    });
    const onlyDollars = [...dollars(2999, 2500).slice(0, 2), { currency: "RUB", priceMinor: 269000 }];
    expect((await sale({ prices: onlyDollars, saleStartsAt: start, saleEndsAt: end })).body).toMatchObject({
      msg: "A sale needs a sale price in each currency the product is priced in",
    });
    const noDeal = await sale({ prices: dollars(2999, 2800), saleStartsAt: start, saleEndsAt: end });
    expect(noDeal.body.msg).toBe("This sale is no deal: a regular pack costs the same or less per credit (credits_150, credits_500, plan_monthly)");
    const stored = async () => (await t.db.product.findUniqueOrThrow({ where: { id: id.credits_50 } })).prices;
    expect(await stored()).toContainEqual({ currency: "USD", priceMinor: 2999, salePriceMinor: null });
    expect((await put("marketer", id.credits_50, { prices: dollars("abc") })).status).toBe(400);
    expect((await put("marketer", id.credits_50, { prices: [] })).body.msg).toBe("Please give a price in USD");
    expect((await put("marketer", id.credits_50, { prices: [...usd(2999), ...usd(2999)] })).body.msg).toBe("Each currency may have one price only");
    expect((await put("marketer", id.credits_50, { prices: [...usd(2999), { currency: "XYZ", priceMinor: 1 }] })).status).toBe(400);
    // lowering a pack's price under the running sale's is the same false deal, from the other side, in any currency
    expect((await put("marketer", id.credits_50, { prices: dollars(199) })).body.msg).toMatch(/^At this price a sale would be no deal.*\(flash_video\)$/);
    const cheapRoubles = [...usd(2999), { currency: "RUB", priceMinor: 17900 }];
    expect((await put("marketer", id.credits_50, { prices: cheapRoubles })).body.msg).toMatch(/^At this price a sale would be no deal.*\(flash_video\)$/);
    expect(await stored()).toContainEqual({ currency: "USD", priceMinor: 2999, salePriceMinor: null });
  });

  it("a price change is charged at the next checkout, never to an order already open, which keeps its name and price", async () => {
    const { token } = await visitor(t);
    const open = await order(token, id.credits_150).expect(200);
    const prices = [...usd(8499), { currency: "EUR", priceMinor: 7999 }];
    await put("marketer", id.credits_150, { prices, name: "150 credits (new)" }).expect(200);
    const listed = (await t.http.get("/api/index/getProducts").expect(200)).body.data.list.find((p: { code: string }) => p.code === "credits_150");
    expect(listed).toMatchObject({ price: 8499, name: "150 credits (new)" });
    const next = await order(token, id.credits_150).expect(200);
    const [before, after] = await Promise.all(
      [open.body.data.order_id, next.body.data.order_id].map((o) => t.db.order.findUniqueOrThrow({ where: { id: o } })),
    );
    expect(before).toMatchObject({ finalPriceMinor: 7999, productName: "150 credits" });
    expect(after).toMatchObject({ finalPriceMinor: 8499, productName: "150 credits (new)" });
  });

  it("a product limited to some channels is listed and sold only in them", async () => {
    await put("admin", id.credits_500, { channels: ["tg"] }).expect(200);
    const codes = async (channel?: string) =>
      (
        await t.http
          .get("/api/index/getProducts")
          .set(channel ? { "channel-id": channel } : {})
          .expect(200)
      ).body.data.list.map((p: { code: string }) => p.code);
    expect(await codes()).not.toContain("credits_500");
    expect(await codes("tg")).toContain("credits_500");
    const detail = (channel?: string) => t.http.get(`/api/index/getProductDetail?product_id=${id.credits_500}`).set(channel ? { "channel-id": channel } : {});
    await detail().expect(404);
    // best value among what the channel offers, per currency: in euros the 500 pack, in dollars the plan (decision 380)
    const shown = (await detail("tg").expect(200)).body.data;
    expect(shown).toMatchObject({ code: "credits_500", currency: "USD", best_value: false });
    expect(shown.prices.filter((p: { best_value: boolean }) => p.best_value).map((p: { currency: string }) => p.currency)).toEqual(["EUR"]);
    const { token } = await visitor(t);
    expect((await order(token, id.credits_500)).body).toMatchObject({ code: 400, msg: "This offer has ended" });
    await put("admin", id.credits_500, { channels: [] }).expect(200);
  });
});
