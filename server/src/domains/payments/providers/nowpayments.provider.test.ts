import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { startFakeNowpayments, type FakeNowpayments } from "../../../../../tests/fixtures/fake-nowpayments.ts";
import { seedProducts } from "../../products/products.seed.ts";

const API_KEY = "NP-TEST-KEY-0001";
const IPN_SECRET = "np_ipn_secret_reverie_fake";
let fake: FakeNowpayments;
let t: TestApp;
let productId: number;

beforeAll(async () => {
  fake = await startFakeNowpayments({ apiKey: API_KEY, ipnSecret: IPN_SECRET });
  t = await createTestApp({ NOWPAYMENTS_API_KEY: API_KEY, NOWPAYMENTS_IPN_SECRET: IPN_SECRET, NOWPAYMENTS_API_BASE: fake.url });
  await seedProducts(t.db);
  productId = (await t.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
  // the provider's amounts below are this pack at $12.99, whatever the seeded catalogue charges
  await t.db.product.update({ where: { code: "credits_150" }, data: { prices: [{ currency: "USD", priceMinor: 1299, salePriceMinor: null }] } });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(async () => {
  fake.setDown(false);
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

async function checkout() {
  const user = await visitor(t);
  const res = await t.http
    .post("/api/order/createOrderAndPay")
    .set("token", user.token)
    .send({ product_id: productId, agree_terms: true, provider: "usdt" })
    .expect(200);
  const data = res.body.data as { order_id: number; order_no: string; pay_url: string };
  return { ...user, ...data, inv: fake.byOrderNo(data.order_no) };
}

const post = (n: { body: string; headers: Record<string, string> }) => t.http.post("/api/pay/webhook/usdt").set(n.headers).send(n.body);
const orderOf = (id: number) => t.db.order.findUniqueOrThrow({ where: { id } });
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const query = (c: { token: string; order_id: number }) =>
  t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);

describe("USDT through NOWPayments", () => {
  it("opens a NOWPayments invoice for the order in USDT and sends the buyer back to /usdtCallback", async () => {
    const c = await checkout();
    expect(c.inv).toMatchObject({
      price_amount: 12.99,
      price_currency: "usd",
      pay_currency: "usdttrc20",
      ipn_callback_url: `${t.config.publicUrl}/api/pay/webhook/usdt`,
      success_url: `${t.config.publicUrl}/usdtCallback?order_id=${c.order_id}`,
    });
    expect(c.pay_url).toBe(c.inv.invoice_url);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", provider: "usdt", providerRef: c.inv.id, credits: 150, bonusCredits: 50 });
  });

  it("a finished payment credits the pack and the +50 crypto bonus in one transaction, once: 100 replays, 20 at once", async () => {
    const c = await checkout();
    const n = fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 });
    for (let i = 0; i < 100; i++) await post(n).expect(200);
    const c2 = await checkout();
    const n2 = fake.ipn(c2.inv, { status: "finished", actuallyPaid: 12.99 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(n2)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const x of [c, c2]) {
      expect(await orderOf(x.order_id)).toMatchObject({ status: "paid", receivedAmount: "12.99", receivedCurrency: "USDTTRC20" });
      expect(await points(x.userId)).toBe(200);
      const entries = await t.db.ledgerEntry.findMany({ where: { userId: x.userId }, orderBy: { id: "asc" } });
      expect(entries.map((e) => [e.reason, e.delta])).toEqual([
        ["purchase", 150],
        ["crypto_bonus", 50],
      ]);
    }
  });

  it("a partial payment credits nothing and the order shows what arrived; the rest arriving pays it", async () => {
    const c = await checkout();
    await post(fake.ipn(c.inv, { status: "partially_paid", actuallyPaid: 5 })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", receivedAmount: "5", receivedCurrency: "USDTTRC20" });
    expect((await query(c)).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
    // a "finished" that still reports less than due is not a full payment
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12 })).expect(200);
    expect(await points(c.userId)).toBe(0);
    const mine = await t.http.get("/api/order/getOrderDetail").query({ order_id: c.order_id }).set("token", c.token).expect(200);
    expect(mine.body.data).toMatchObject({ order_status: "pending", received_amount: "12", received_currency: "USDTTRC20" });
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 })).expect(200);
    expect(await points(c.userId)).toBe(200);
  });

  it("an over-payment is a full payment: credited once, the order shows the excess that arrived", async () => {
    const c = await checkout();
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 20.5 })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", receivedAmount: "20.5" });
    expect(await points(c.userId)).toBe(200);
  });

  it("confirming keeps polling (3ds_pending); expired ends unsuccessfully", async () => {
    const c = await checkout();
    await post(fake.ipn(c.inv, { status: "confirming", actuallyPaid: 12.99 })).expect(200);
    expect((await query(c)).body.data).toMatchObject({ order_status: "3ds_pending", keep_polling: true });
    const d = await checkout();
    await post(fake.ipn(d.inv, { status: "expired" })).expect(200);
    expect((await query(d)).body.data).toMatchObject({ order_status: "failed", keep_polling: false });
    expect(await points(d.userId)).toBe(0);
  });

  it("a bad signature, a stale notification or a price that is not the order's credit nothing", async () => {
    const c = await checkout();
    const good = fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 });
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99, secret: "other" })).expect(400);
    await post({ ...good, body: good.body.replace('"price_amount":12.99', '"price_amount":1') }).expect(400);
    await post({ body: good.body, headers: { "content-type": "application/json" } }).expect(400);
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99, updatedAt: Date.now() - 301_000 })).expect(400);
    expect(await points(c.userId)).toBe(0);
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99, priceAmount: 1 })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({
      status: "pending",
      failureReason: "amount_mismatch",
      receivedAmount: "12.99",
      receivedCurrency: "USDTTRC20",
    });
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 13.5, priceCurrency: "eur" })).expect(200);
    // nothing credited, and the order shows what arrived
    expect(await orderOf(c.order_id)).toMatchObject({
      status: "pending",
      failureReason: "amount_mismatch",
      receivedAmount: "13.5",
      receivedCurrency: "USDTTRC20",
    });
    const mine = await t.http.get("/api/order/getOrderDetail").query({ order_id: c.order_id }).set("token", c.token).expect(200);
    expect(mine.body.data).toMatchObject({ order_status: "pending", received_amount: "13.5", received_currency: "USDTTRC20" });
    expect(await points(c.userId)).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: c.userId } })).toBe(0);
  });

  it("an IPN refused for a price that is not the order's leaves the genuine IPN of the same state its slot", async () => {
    const c = await checkout();
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99, priceAmount: 1 })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", failureReason: "amount_mismatch" });
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", failureReason: null });
    expect(await points(c.userId)).toBe(200);
  });

  it("an IPN naming one order's invoice and another's order id credits neither; both genuine IPNs then pay once", async () => {
    const a = await checkout();
    const b = await checkout();
    const crossed = fake.ipn({ ...b.inv, order_id: a.order_no }, { status: "finished", actuallyPaid: 12.99 });
    await Promise.all(Array.from({ length: 5 }, () => post(crossed).expect(200)));
    expect(await orderOf(a.order_id)).toMatchObject({ status: "pending" });
    expect(await orderOf(b.order_id)).toMatchObject({ status: "pending" });
    for (const x of [a, b]) await post(fake.ipn(x.inv, { status: "finished", actuallyPaid: 12.99 })).expect(200);
    for (const x of [a, b]) {
      expect(await orderOf(x.order_id)).toMatchObject({ status: "paid" });
      expect(await points(x.userId)).toBe(200);
    }
  });

  describe("polling (SPEC §9) when IPNs are lost", () => {
    const statusCalls = (paymentId: number) => fake.requests.filter((r) => r.method === "GET" && r.path === `/v1/payment/${paymentId}`).length;

    it("the first IPN gives the order NOWPayments' payment id; with the finished IPN lost, polling asks GET /v1/payment/{id} and pays once", async () => {
      const c = await checkout();
      // before any IPN there is no payment id and nothing to ask
      expect((await query(c)).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
      expect(statusCalls(c.inv.payment_id)).toBe(0);
      await post(fake.ipn(c.inv, { status: "waiting" })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ providerPaymentRef: String(c.inv.payment_id) });
      const lost = fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 });
      // the buyer's browser polls, 20 times at once
      const polls = await Promise.all(Array.from({ length: 20 }, () => query(c)));
      expect(polls.every((p) => p.body.data.order_status === "paid")).toBe(true);
      expect(statusCalls(c.inv.payment_id)).toBeGreaterThan(0);
      expect((await query(c)).body.data).toMatchObject({ order_status: "paid", paid: true, keep_polling: false });
      // the lost IPN turns up late: the same payment state, already applied
      expect((await post(lost).expect(200)).body.data).toEqual({ received: true, duplicate: true });
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", receivedAmount: "12.99" });
      expect(await points(c.userId)).toBe(200);
      const entries = await t.db.ledgerEntry.findMany({ where: { userId: c.userId }, orderBy: { id: "asc" } });
      expect(entries.map((e) => [e.reason, e.delta])).toEqual([
        ["purchase", 150],
        ["crypto_bonus", 50],
      ]);
    });

    it("polling a short payment shows what arrived and credits nothing; NOWPayments down leaves the stored status", async () => {
      const c = await checkout();
      await post(fake.ipn(c.inv, { status: "waiting" })).expect(200);
      fake.ipn(c.inv, { status: "partially_paid", actuallyPaid: 4 });
      expect((await query(c)).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
      expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", receivedAmount: "4" });
      fake.setDown(true);
      fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 });
      expect((await query(c)).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
      fake.setDown(false);
      expect((await query(c)).body.data).toMatchObject({ order_status: "paid" });
      expect(await points(c.userId)).toBe(200);
    });

    it("another user cannot poll someone's order", async () => {
      const c = await checkout();
      const other = await visitor(t);
      await t.http.post("/api/order/queryPayment").set("token", other.token).send({ order_id: c.order_id }).expect(404);
    });
  });

  it("answers 'Payment failed, please try again later' when NOWPayments is down, and the order cannot be paid", async () => {
    fake.setDown(true);
    const user = await visitor(t);
    const res = await t.http.post("/api/order/createOrderAndPay").set("token", user.token).send({ product_id: productId, agree_terms: true, provider: "usdt" });
    expect(res.body).toEqual({ code: 502, msg: "Payment failed, please try again later", data: null });
    expect(await t.db.order.findFirstOrThrow({ where: { userId: user.userId } })).toMatchObject({ status: "failed" });
  });

  it("a staff refund is refused (NOWPayments has no refund call) and changes nothing", async () => {
    const c = await checkout();
    await post(fake.ipn(c.inv, { status: "finished", actuallyPaid: 12.99 })).expect(200);
    const { id: staffId } = await t.db.staff.create({ data: { username: "usdt-support", passwordHash: "x", totpSecret: "x", roles: ["support"] } });
    await expect(t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "asked" })).rejects.toMatchObject({ status: 409 });
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
    expect(await points(c.userId)).toBe(200);
  });
});
