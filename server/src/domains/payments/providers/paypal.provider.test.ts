import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { expectRefundRace } from "../../../../../tests/order-utils.ts";
import { startFakePaypal, type FakePaypal } from "../../../../../tests/fixtures/fake-paypal.ts";
import { freePort } from "../../../../../tests/net-utils.ts";
import { seedProducts } from "../../products/products.seed.ts";

const CREDENTIALS = { clientId: "fake-client", clientSecret: "fake-secret", webhookId: "WH-FAKE-123" };
let fake: FakePaypal;
let t: TestApp;
let productId: number;

beforeAll(async () => {
  fake = await startFakePaypal(CREDENTIALS);
  t = await createTestApp({
    PAYPAL_CLIENT_ID: CREDENTIALS.clientId,
    PAYPAL_CLIENT_SECRET: CREDENTIALS.clientSecret,
    PAYPAL_WEBHOOK_ID: CREDENTIALS.webhookId,
    PAYPAL_API_BASE: fake.url,
  });
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
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

async function createPay() {
  const user = await visitor(t);
  const res = await t.http.post("/api/order/createPaypalPay").set("token", user.token).send({ product_id: productId, agree_terms: "1" }).expect(200);
  return { ...user, ...(res.body.data as { order_id: number; order_no: string; pay_url: string; session_id: string }) };
}

function capture(token: string, sessionId: string, metadataId = "cmid-123") {
  return t.http.post("/api/order/capturePaypalOrder").set("token", token).set("PayPal-Client-Metadata-Id", metadataId).send({ session_id: sessionId });
}

const webhook = (n: { body: string; headers: Record<string, string> }) => t.http.post("/api/pay/webhook/paypal").set(n.headers).send(n.body);
const orderOf = (id: number) => t.db.order.findUniqueOrThrow({ where: { id } });
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

describe("PayPal Orders v2", () => {
  it("creates a PayPal order for the order's amount and sends the buyer to PayPal's approval page", async () => {
    const c = await createPay();
    const paypalOrder = fake.orders.get(c.session_id)!;
    expect(c.pay_url).toBe(`${fake.url}/checkoutnow?token=${c.session_id}`);
    expect(paypalOrder.purchase_units[0]).toMatchObject({ custom_id: c.order_no, amount: { currency_code: "USD", value: "12.99" } });
    expect(paypalOrder.return_url).toBe(`${t.config.publicUrl}/paypalCallback?order_id=${c.order_id}`);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", provider: "paypal", providerRef: c.session_id });
  });

  it("capturePaypalOrder captures with the client metadata header, pays and credits once; a repeat changes nothing", async () => {
    const c = await createPay();
    fake.approve(c.session_id);
    const res = await capture(c.token, c.session_id).expect(200);
    expect(res.body.data).toMatchObject({ order_status: "paid", paid: true });
    expect(await points(c.userId)).toBe(150);
    const call = fake.requests.find((r) => r.path === `/v2/checkout/orders/${c.session_id}/capture`)!;
    expect(call.headers["paypal-client-metadata-id"]).toBe("cmid-123");
    expect(call.headers["paypal-request-id"]).toBe(`capture-${c.session_id}`);
    await capture(c.token, c.session_id).expect(200);
    expect(await points(c.userId)).toBe(150);
  });

  it("reuses the OAuth token across calls", async () => {
    const before = fake.tokenRequests();
    await createPay();
    await createPay();
    expect(fake.tokenRequests() - before).toBe(0);
  });

  it("a user cannot capture another user's PayPal order (404)", async () => {
    const c = await createPay();
    fake.approve(c.session_id);
    const other = await visitor(t);
    await capture(other.token, c.session_id).expect(404);
    expect(fake.orders.get(c.session_id)!.status).toBe("APPROVED");
    expect(await points(c.userId)).toBe(0);
  });

  it("a declined capture fails the order with the SPEC message", async () => {
    const c = await createPay();
    fake.approve(c.session_id, true);
    const res = await capture(c.token, c.session_id);
    expect(res.body).toMatchObject({ code: 402, msg: "We're sorry, your payment didn't go through", data: { order_status: "failed" } });
    expect(await points(c.userId)).toBe(0);
  });

  it("queryPayment captures an approved order whose buyer never came back", async () => {
    const c = await createPay();
    const waiting = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(waiting.body.data.order_status).toBe("pending");
    fake.approve(c.session_id);
    const done = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(done.body.data.order_status).toBe("paid");
    expect(await points(c.userId)).toBe(150);
  });

  it("answers 'Payment failed, please try again later' when PayPal cannot be reached, and 503 to notifications it cannot verify", async () => {
    const settings = { PAYPAL_CLIENT_ID: CREDENTIALS.clientId, PAYPAL_CLIENT_SECRET: CREDENTIALS.clientSecret, PAYPAL_WEBHOOK_ID: CREDENTIALS.webhookId };
    const down = await createTestApp({ ...settings, PAYPAL_API_BASE: `http://127.0.0.1:${await freePort()}` }, t.testDb);
    const user = await visitor(down);
    const res = await down.http.post("/api/order/createPaypalPay").set("token", user.token).send({ product_id: productId, agree_terms: true });
    expect(res.body).toEqual({ code: 502, msg: "Payment failed, please try again later", data: null });
    expect(await t.db.order.findFirstOrThrow({ where: { userId: user.userId } })).toMatchObject({ status: "failed" });
    const n = fake.notification("PAYMENT.CAPTURE.COMPLETED", { id: "CAP1", status: "COMPLETED" });
    await down.http.post("/api/pay/webhook/paypal").set(n.headers).send(n.body).expect(503);
  });

  describe("webhooks", () => {
    async function capturedElsewhere() {
      const c = await createPay();
      fake.approve(c.session_id);
      return { c, resource: fake.captureNow(c.session_id) };
    }

    it("a verified PAYMENT.CAPTURE.COMPLETED pays the order; a replay is acknowledged and changes nothing", async () => {
      const { c, resource } = await capturedElsewhere();
      const n = fake.notification("PAYMENT.CAPTURE.COMPLETED", resource);
      expect((await webhook(n).expect(200)).body.data.duplicate).toBe(false);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
      expect((await webhook(n).expect(200)).body.data.duplicate).toBe(true);
      // the browser's capture afterwards finds it already captured
      await capture(c.token, c.session_id).expect(200);
      expect(await points(c.userId)).toBe(150);
    });

    it("a verified capture naming one order's PayPal order and another's custom_id credits neither; the genuine captures pay each", async () => {
      const a = await capturedElsewhere();
      const b = await capturedElsewhere();
      const crossed = fake.notification("PAYMENT.CAPTURE.COMPLETED", { ...b.resource, custom_id: a.c.order_no });
      await Promise.all(Array.from({ length: 5 }, () => webhook(crossed).expect(200)));
      expect(await orderOf(a.c.order_id)).toMatchObject({ status: "pending" });
      expect(await orderOf(b.c.order_id)).toMatchObject({ status: "pending" });
      for (const x of [a, b]) await webhook(fake.notification("PAYMENT.CAPTURE.COMPLETED", x.resource)).expect(200);
      for (const x of [a, b]) {
        expect(await orderOf(x.c.order_id)).toMatchObject({ status: "paid" });
        expect(await points(x.c.userId)).toBe(150);
      }
    });

    it("refuses a tampered body, a wrong webhook id and a stale transmission", async () => {
      const { c, resource } = await capturedElsewhere();
      const n = fake.notification("PAYMENT.CAPTURE.COMPLETED", resource);
      const tampered = n.body.replace(`"value":"12.99"`, `"value":"0.01"`);
      expect(tampered).not.toBe(n.body);
      await webhook({ ...n, body: tampered }).expect(400);
      await webhook(fake.notification("PAYMENT.CAPTURE.COMPLETED", resource, { webhookId: "WH-OTHER" })).expect(400);
      await webhook(fake.notification("PAYMENT.CAPTURE.COMPLETED", resource, { transmissionTime: new Date(Date.now() - 301_000) })).expect(400);
      const { "paypal-transmission-sig": _sig, ...unsigned } = n.headers;
      await webhook({ body: n.body, headers: unsigned }).expect(400);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
      expect(await t.db.paymentEvent.count({ where: { provider: "paypal", orderId: c.order_id } })).toBe(0);
    });

    it("CHECKOUT.ORDER.APPROVED makes Reverie capture the payment, even if the buyer never comes back", async () => {
      const c = await createPay();
      fake.approve(c.session_id);
      await webhook(fake.notification("CHECKOUT.ORDER.APPROVED", fake.orders.get(c.session_id))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
      expect(fake.orders.get(c.session_id)!.status).toBe("COMPLETED");
      expect(await points(c.userId)).toBe(150);
    });

    it("a denied capture after a completed one does not undo the payment", async () => {
      const { c, resource } = await capturedElsewhere();
      await webhook(fake.notification("PAYMENT.CAPTURE.COMPLETED", resource)).expect(200);
      await webhook(fake.notification("PAYMENT.CAPTURE.DENIED", { ...resource, status: "DECLINED" })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
      expect(await points(c.userId)).toBe(150);
    });
  });

  describe("refunds and reversals PayPal reports (decision 208)", () => {
    async function paid() {
      const c = await createPay();
      fake.approve(c.session_id);
      await capture(c.token, c.session_id).expect(200);
      const captureId = fake.orders.get(c.session_id)!.purchase_units[0].payments!.captures[0].id;
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", providerPaymentRef: captureId });
      return { ...c, captureId };
    }
    const clawbacks = (userId: number) => t.db.ledgerEntry.findMany({ where: { userId, reason: { in: ["order_refund", "chargeback"] } } });

    it("PAYMENT.CAPTURE.REFUNDED claws the credits back once: sent 20 times at once and replayed 100 times", async () => {
      const c = await paid();
      const n = fake.notification("PAYMENT.CAPTURE.REFUNDED", fake.refundCapture(c.captureId));
      const answers = await Promise.all(Array.from({ length: 20 }, () => webhook(n)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (let i = 0; i < 100; i++) await webhook(n).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -150, reason: "order_refund" }]);
    });

    it("a partial refund is recorded and takes nothing; PAYMENT.CAPTURE.REVERSED of the rest takes back what is left", async () => {
      const c = await paid();
      await webhook(fake.notification("PAYMENT.CAPTURE.REFUNDED", fake.refundCapture(c.captureId, "2.99"))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", refundedMinor: 299 });
      expect(await points(c.userId)).toBe(150);
      await t.services.credits.charge({ userId: c.userId, amount: 140, reason: "generation", idempotencyKey: `spend:${c.order_id}` });
      await webhook(fake.notification("PAYMENT.CAPTURE.REVERSED", fake.refundCapture(c.captureId))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -10, reason: "chargeback" }]);
    });

    it("a staff refund and PayPal's PAYMENT.CAPTURE.REFUNDED sent at the same moment take the credits back once", async () => {
      const { id: staffId } = await t.db.staff.create({ data: { username: "paypal-race", passwordHash: "x", totpSecret: "x", roles: ["support"] } });
      for (let i = 0; i < 4; i++) {
        const c = await paid();
        await expectRefundRace(
          t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "race" }),
          webhook(fake.notification("PAYMENT.CAPTURE.REFUNDED", fake.fullRefundOf(c.captureId))).expect(200),
        );
        expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
        expect(await points(c.userId)).toBe(0);
        expect(await clawbacks(c.userId)).toHaveLength(1);
      }
    });
  });
});
