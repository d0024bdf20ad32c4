import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { packOrder, paidPackOrder } from "../../../../tests/order-utils.ts";
import { seedProducts } from "../products/products.seed.ts";

// Issue 30 item 3: the account's purchases and their receipts.

let t: TestApp;
let packId: number;
beforeAll(async () => {
  t = await createTestApp();
  await seedProducts(t.db);
  packId = (await t.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
});
afterAll(() => t.close());

const order = (userId: number, n: number) => packOrder(t, packId, userId, `ACCOUNT-${n}`);
const paid = (userId: number, n: number) => paidPackOrder(t, packId, userId, `ACCOUNT-${n}`);

describe("purchases and receipts", () => {
  it("lists orders with status, pack, price, provider and date; a paid one has a receipt, an unpaid one none", async () => {
    const { token, userId } = await visitor(t);
    const open = await order(userId, 1);
    const done = await paid(userId, 2);
    const list = (await t.http.get("/api/order/getUserOrders").set("token", token).expect(200)).body.data;
    expect(list.list.map((o: { order_status: string }) => o.order_status)).toEqual(["paid", "pending"]);
    expect(list.list[0]).toMatchObject({ product_name: "150 credits", final_price_text: "$12.99", provider: "sandbox" });
    const receipt = (await t.http.get(`/api/order/receipt?order_id=${done.id}`).set("token", token).expect(200)).body.data;
    expect(receipt).toMatchObject({
      order_no: done.orderNo,
      product_name: "150 credits",
      price_text: "$12.99",
      credits: 150,
      refunded: false,
      refunded_text: null,
    });
    const none = await t.http.get(`/api/order/receipt?order_id=${open.id}`).set("token", token).expect(409);
    expect(none.body.msg).toBe("This order has no receipt: it was not paid");
    await t.http.get("/api/order/receipt?order_id=abc").set("token", token).expect(400);
  });

  it("a refunded order keeps its receipt, marked refunded", async () => {
    const { token, userId } = await visitor(t);
    const o = await paid(userId, 1);
    await t.db.order.update({ where: { id: o.id }, data: { status: "refunded", refundedMinor: 1299 } });
    const receipt = (await t.http.get(`/api/order/receipt?order_id=${o.id}`).set("token", token).expect(200)).body.data;
    expect(receipt).toMatchObject({ order_status: "refunded", refunded: true, refunded_text: "$12.99" });
  });

  it("emails the receipt in the account's language through the outbox; without an email it says how to get one", async () => {
    const { token, userId } = await visitor(t);
    const o = await paid(userId, 1);
    const noEmail = await t.http.post("/api/order/emailReceipt").set("token", token).send({ order_id: o.id }).expect(409);
    expect(noEmail.body.msg).toBe("Add an email to your account to get receipts by email");
    await t.db.user.update({ where: { id: userId }, data: { email: `buyer-${userId}@example.com`, language: "ja" } });
    const sent = await t.http.post("/api/order/emailReceipt").set("token", token).send({ order_id: o.id }).expect(200);
    expect(sent.body.data).toEqual({ sent_to: `buyer-${userId}@example.com` });
    const mail = await t.db.outboxEmail.findFirstOrThrow({ where: { to: `buyer-${userId}@example.com` } });
    expect(mail.subject).toBe(`Reverie 注文 ${o.orderNo} の領収書`);
    expect(mail.body).toContain("$12.99");
    // the way it was paid is named in the reader's language too
    expect(mail.body).toContain("カード（テスト決済）");
    // a burst of taps sends at most three in an hour
    const burst = await Promise.all(Array.from({ length: 6 }, () => t.http.post("/api/order/emailReceipt").set("token", token).send({ order_id: o.id })));
    expect(burst.filter((r) => r.status === 200)).toHaveLength(2);
    expect(burst.filter((r) => r.status === 429).length).toBe(4);
    expect(await t.db.outboxEmail.count({ where: { to: `buyer-${userId}@example.com` } })).toBe(3);
  });

  it("another account's order, receipt and receipt email are 404, and nothing is sent", async () => {
    const owner = await visitor(t);
    const o = await paid(owner.userId, 1);
    await t.db.user.update({ where: { id: owner.userId }, data: { email: `owner-${owner.userId}@example.com` } });
    const other = await visitor(t);
    await t.http.get(`/api/order/receipt?order_id=${o.id}`).set("token", other.token).expect(404);
    await t.http.post("/api/order/emailReceipt").set("token", other.token).send({ order_id: o.id }).expect(404);
    await t.http.get(`/api/order/getOrderDetail?order_id=${o.id}`).set("token", other.token).expect(404);
    const theirs = (await t.http.get("/api/order/getUserOrders").set("token", other.token).expect(200)).body.data;
    expect(theirs.total).toBe(0);
    expect(await t.db.outboxEmail.count({ where: { to: `owner-${owner.userId}@example.com` } })).toBe(0);
    await t.http.get(`/api/order/receipt?order_id=${o.id}`).expect(401);
  });
});
