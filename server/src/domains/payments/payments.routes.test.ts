import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { seedProducts } from "../products/products.seed.ts";
import { signNotification } from "./providers/signature.ts";

const SECRET = "sandbox-test-secret-0123456789";
let t: TestApp;
const product: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_WEBHOOK_SECRET: SECRET });
  await seedProducts(t.db);
  for (const p of await t.db.product.findMany()) product[p.code] = p.id;
});
afterAll(() => t.close());
afterEach(async () => {
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

function order(token: string, body: Record<string, unknown> = {}) {
  return t.http
    .post("/api/order/createOrderAndPay")
    .set("token", token)
    .send({ product_id: product.credits_150, provider: "sandbox", agree_terms: true, ...body });
}

/** A notification exactly as the sandbox gateway sends it, signed with the shared secret. */
function notification(sessionId: string, orderNo: string, type: string, eventId = `sbevt_${crypto.randomBytes(6).toString("hex")}`, amount = 7999) {
  const body = JSON.stringify({
    id: eventId,
    type,
    created: Math.floor(Date.now() / 1000),
    data: { session_id: sessionId, order_no: orderNo, amount, currency: "USD", status: "succeeded" },
  });
  return { body, signature: signNotification(SECRET, body) };
}

function deliver(n: { body: string; signature: string }) {
  return t.http.post("/api/pay/webhook/sandbox").set("content-type", "application/json").set("sandbox-signature", n.signature).send(n.body);
}

const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

describe("products", () => {
  it("lists credit packs in minor units with a best-value product, the running flash sale and the plan", async () => {
    const res = await t.http.get("/api/index/getProducts?t=1").expect(200);
    const list = res.body.data.list as any[];
    // in dollars a credit costs least on the plan (decision 380)
    expect(list.filter((p) => p.best_value).map((p) => p.code)).toEqual(["plan_monthly"]);
    const flash = list.find((p) => p.code === "flash_video");
    expect(flash).toMatchObject({ price: 199, was_price: 400, currency: "USD", price_text: "$1.99", was_price_text: "$4.00", credits: 4 });
    expect(flash.seconds_left).toBeGreaterThan(0);
    expect(new Date(flash.sale_starts_at).getTime()).toBeLessThanOrEqual(Date.now());
    // a regular pack carries no "was" price
    expect(list.find((p) => p.code === "credits_50")).toMatchObject({ was_price: null, sale_starts_at: null });
    expect(list.find((p) => p.kind === "subscription")).toMatchObject({ interval_days: 30, price: 14999 });
    expect(list.every((p) => Number.isInteger(p.price))).toBe(true);
  });

  it("shows limited offers, product detail and what a user can still buy", async () => {
    const limited = (await t.http.get("/api/index/getProductsLimited").expect(200)).body.data.list;
    expect(limited.map((p: any) => p.code)).toEqual(["flash_video"]);
    const detail = await t.http.get(`/api/index/getProductDetail?product_id=${product.credits_50}`).expect(200);
    expect(detail.body.data).toMatchObject({ code: "credits_50", credits: 50, price: 2999 });
    await t.http.get("/api/index/getProductDetail?product_id=999999").expect(404);
    await t.http.get("/api/index/getProductDetail?product_id=abc").expect(400);

    const { token } = await visitor(t);
    const mine = await t.http.get("/api/Personal/user_products_limited").set("token", token).expect(200);
    expect(mine.body.data.list).toEqual([expect.objectContaining({ code: "flash_video", remaining: 3 })]);
    await order(token, { product_id: product.flash_video, quantity: 2 }).expect(200);
    const after = await t.http.get("/api/Personal/user_products_limited").set("token", token).expect(200);
    expect(after.body.data.list[0].remaining).toBe(1);
    const over = await order(token, { product_id: product.flash_video, quantity: 2 });
    expect(over.body).toMatchObject({ code: 409, msg: "You have reached the purchase limit for this offer" });
  });

  it("refuses a flash sale that has ended", async () => {
    const ended = await t.db.product.create({
      data: {
        code: "ended_sale",
        name: "old",
        kind: "flash_sale",
        credits: 1,
        prices: [{ currency: "USD", priceMinor: 100, salePriceMinor: 50 }],
        saleStartsAt: new Date(Date.now() - 9000),
        saleEndsAt: new Date(Date.now() - 1000),
      },
    });
    const { token } = await visitor(t);
    expect((await order(token, { product_id: ended.id })).body).toMatchObject({ code: 400, msg: "This offer has ended" });
    expect((await t.http.get("/api/index/getProducts")).body.data.list.map((p: any) => p.code)).not.toContain("ended_sale");
  });
});

describe("createOrderAndPay", () => {
  it("returns order_id, order_no and pay_url; the order carries the SPEC fields", async () => {
    const { token } = await visitor(t);
    const res = await order(token, { quantity: 2 }).expect(200);
    expect(res.body.data).toMatchObject({
      order_id: expect.any(Number),
      order_no: expect.stringMatching(/^RV\d{8}[0-9A-F]{12}$/),
      pay_url: expect.stringContaining("/sandbox-pay/sbx_"),
    });
    const detail = await t.http.get(`/api/order/getOrderDetail?order_id=${res.body.data.order_id}`).set("token", token).expect(200);
    expect(detail.body.data).toMatchObject({
      order_status: "pending",
      amount: 15998,
      final_price: 15998,
      currency: "USD",
      quantity: 2,
      credits: 300,
      provider: "sandbox",
    });
    const info = await t.http.get(`/api/Order/getOrderInfo?order_id=${res.body.data.order_id}`).set("token", token).expect(200);
    expect(info.body.data.order_no).toBe(res.body.data.order_no);
  });

  it("shows was/now prices on a flash-sale order", async () => {
    const { token } = await visitor(t);
    const res = await order(token, { product_id: product.flash_video }).expect(200);
    const detail = await t.http.get(`/api/order/getOrderDetail?order_id=${res.body.data.order_id}`).set("token", token).expect(200);
    expect(detail.body.data).toMatchObject({ amount: 400, final_price: 199, final_price_text: "$1.99" });
  });

  it("requires agreeing to the terms and changes nothing otherwise", async () => {
    const { token, userId } = await visitor(t);
    for (const agree of [false, 0, undefined]) {
      const res = await order(token, { agree_terms: agree });
      expect(res.body).toEqual({ code: 400, msg: "Please agree to the terms first", data: null });
    }
    expect((await order(token, { agree_terms: "maybe" })).body.msg).toBe("Please agree to the terms first");
    expect(await t.db.order.count({ where: { userId } })).toBe(0);
  });

  it("validates input with clear messages", async () => {
    const { token } = await visitor(t);
    expect((await order(token, { product_id: "x" })).body).toMatchObject({ code: 400, msg: "Please choose a product" });
    expect((await order(token, { quantity: 0 })).body).toMatchObject({ code: 400, msg: "Quantity must be a whole number from 1 to 100" });
    expect((await order(token, { provider: "<script>" })).body).toMatchObject({ code: 400, msg: "Unknown payment provider" });
    expect((await order(token, { product_id: 999999 })).status).toBe(404);
    await t.http.post("/api/order/createOrderAndPay").send({ product_id: product.credits_50, agree_terms: true }).expect(401);
  });

  it("answers 'Payment function temporarily unavailable' for providers not configured here", async () => {
    const { token, userId } = await visitor(t);
    for (const provider of ["stripe", "paypal", "usdt"]) {
      expect((await order(token, { provider })).body).toEqual({ code: 503, msg: "Payment function temporarily unavailable", data: null });
    }
    const stripe = await t.http.post("/api/OrderStripe/createCheckoutSession").set("token", token).send({ product_id: product.credits_50, agree_terms: true });
    expect(stripe.body.msg).toBe("Payment function temporarily unavailable");
    expect(await t.db.order.count({ where: { userId } })).toBe(0);
  });

  it("refuses payment where the user's channel requires a permission support has not granted", async () => {
    await t.db.channel.create({ data: { code: "gated", name: "Gated", requiresPaymentPermission: true } });
    const { token, userId } = await visitor(t, { "channel-id": "gated" });
    const refused = await order(token);
    expect(refused.body).toEqual({ code: 403, msg: "not authorized to operate", data: { reason: "payment_permission_required" } });
    expect(await t.db.order.count({ where: { userId } })).toBe(0);
    await t.db.user.update({ where: { id: userId }, data: { paymentPermission: true } });
    await order(token).expect(200);
  });

  it("applies the default channel's rule to direct visitors and to unknown channels (issue 35 item 4)", async () => {
    await t.db.channel.upsert({
      where: { code: "default" },
      update: { requiresPaymentPermission: true },
      create: { code: "default", name: "Direct", requiresPaymentPermission: true },
    });
    try {
      for (const headers of [{}, { "channel-id": "no-such-channel" }] as Record<string, string>[]) {
        const { token, userId } = await visitor(t, headers);
        expect((await order(token)).body).toEqual({ code: 403, msg: "not authorized to operate", data: { reason: "payment_permission_required" } });
        expect(await t.db.order.count({ where: { userId } })).toBe(0);
      }
      // a channel of its own, without the rule, is not covered by the default channel's
      await t.db.channel.create({ data: { code: "open", name: "Open" } });
      await order((await visitor(t, { "channel-id": "open" })).token).expect(200);
    } finally {
      await t.db.channel.update({ where: { code: "default" }, data: { requiresPaymentPermission: false } });
    }
  });
});

describe("order rate limit", () => {
  it("caps the checkouts one account opens per hour", async () => {
    const limited = await createTestApp({ RATE_LIMIT_ORDERS_PER_HOUR: "2" }, t.testDb);
    const { token } = await visitor(limited);
    const send = () => limited.http.post("/api/order/createOrderAndPay").set("token", token).send({ product_id: product.credits_50, agree_terms: true });
    await send().expect(200);
    await send().expect(200);
    expect((await send()).body).toEqual({ code: 429, msg: "Too many requests", data: null });
  });
});

describe("exactly once", () => {
  it("the same notification delivered 100 times, 20 concurrently, credits the order once", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    const n = notification(created.session_id, created.order_no, "payment.succeeded");
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => deliver(n)));
    expect(concurrent.map((r) => r.status)).toEqual(Array(20).fill(200));
    for (let i = 0; i < 80; i++) await deliver(n).expect(200);
    expect(concurrent.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(await balance(userId)).toBe(150);
    expect(await t.db.paymentEvent.count({ where: { orderId: created.order_id } })).toBe(1);
    expect(await t.db.ledgerEntry.count({ where: { userId, reason: "purchase" } })).toBe(1);
    const detail = await t.http.get(`/api/order/getOrderDetail?order_id=${created.order_id}`).set("token", token).expect(200);
    expect(detail.body.data.order_status).toBe("paid");
  });

  it("two distinct success events about one payment still credit once", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    await deliver(notification(created.session_id, created.order_no, "payment.succeeded")).expect(200);
    await deliver(notification(created.session_id, created.order_no, "payment.succeeded")).expect(200);
    expect(await balance(userId)).toBe(150);
    expect(await t.db.paymentEvent.count({ where: { orderId: created.order_id } })).toBe(2);
  });

  it("out of order: a failure (or 3-D Secure) after paid does not undo the payment", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    await deliver(notification(created.session_id, created.order_no, "payment.succeeded")).expect(200);
    await deliver(notification(created.session_id, created.order_no, "payment.failed")).expect(200);
    await deliver(notification(created.session_id, created.order_no, "payment.requires_action")).expect(200);
    const q = await t.http.post("/api/order/queryPayment").set("token", token).send({ order_id: created.order_id }).expect(200);
    expect(q.body.data).toMatchObject({ order_status: "paid", paid: true });
    expect(await balance(userId)).toBe(150);
  });

  it("a verified payment after the order expired still credits (the money was taken)", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    await t.services.payments.expireAbandoned(new Date(Date.now() + 24 * 3600_000));
    await deliver(notification(created.session_id, created.order_no, "payment.succeeded")).expect(200);
    expect(await balance(userId)).toBe(150);
  });

  it("does not credit a payment whose amount differs from the order", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    await deliver(notification(created.session_id, created.order_no, "payment.succeeded", undefined, 1)).expect(200);
    expect(await balance(userId)).toBe(0);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: created.order_id } })).failureReason).toBe("amount_mismatch");
  });

  it("refuses stale notifications", async () => {
    const { token, userId } = await visitor(t);
    const created = (await order(token).expect(200)).body.data;
    const body = JSON.parse(notification(created.session_id, created.order_no, "payment.succeeded").body);
    const raw = JSON.stringify(body);
    const stale = signNotification(SECRET, raw, Math.floor(Date.now() / 1000) - 301);
    await t.http.post("/api/pay/webhook/sandbox").set("content-type", "application/json").set("sandbox-signature", stale).send(raw).expect(400);
    await t.http.post("/api/pay/webhook/sandbox").set("content-type", "application/json").send(raw).expect(400);
    await t.http.post("/api/pay/webhook/unknown").set("content-type", "application/json").send(raw).expect(404);
    expect(await balance(userId)).toBe(0);
    expect(await t.db.paymentEvent.count({ where: { orderId: created.order_id } })).toBe(0);
  });
});

describe("authorization", () => {
  it("a user cannot read or pay another user's order (404)", async () => {
    const owner = await visitor(t);
    const other = await visitor(t);
    const created = (await order(owner.token).expect(200)).body.data;
    const id = created.order_id;
    await t.http.get(`/api/order/getOrderDetail?order_id=${id}`).set("token", other.token).expect(404);
    await t.http.get(`/api/Order/getOrderInfo?order_id=${id}`).set("token", other.token).expect(404);
    await t.http.post("/api/order/queryPayment").set("token", other.token).send({ order_id: id }).expect(404);
    await t.http.post("/api/Order/orderActionLog").set("token", other.token).send({ order_id: id, pixel_id: "fb1" }).expect(404);
    const list = await t.http.get("/api/order/getUserOrders").set("token", other.token).expect(200);
    expect(list.body.data).toMatchObject({ list: [], total: 0, page: 1, limit: 20 });
    await t.http.get(`/api/order/getOrderDetail?order_id=${id}`).expect(401);
  });

  it("lists the user's own orders with SPEC page sizes and logs a pixel once", async () => {
    const { token } = await visitor(t);
    const a = (await order(token).expect(200)).body.data;
    await order(token, { product_id: product.credits_50 }).expect(200);
    const list = await t.http.get("/api/order/getUserOrders?page=1&limit=10").set("token", token).expect(200);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.list.map((o: any) => o.product_name)).toEqual(["50 credits", "150 credits"]);
    expect((await t.http.get("/api/order/getUserOrders?limit=7").set("token", token)).body).toMatchObject({
      code: 400,
      msg: "Page size must be 10, 20, 30 or 50",
    });
    const first = await t.http.post("/api/Order/orderActionLog").set("token", token).send({ order_id: a.order_id, pixel_id: "fb-123" }).expect(200);
    const again = await t.http.post("/api/Order/orderActionLog").set("token", token).send({ order_id: a.order_id, pixel_id: "fb-123" }).expect(200);
    expect([first.body.data.first, again.body.data.first]).toEqual([true, false]);
  });
});
