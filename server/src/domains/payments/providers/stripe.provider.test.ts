import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { expectRefundRace } from "../../../../../tests/order-utils.ts";
import { startFakeStripe, type FakeStripe } from "../../../../../tests/fixtures/fake-stripe.ts";
import { seedProducts } from "../../products/products.seed.ts";

const SECRET_KEY = "sk_test_reverie_fake";
const WEBHOOK_SECRET = "whsec_reverie_fake_secret";
let fake: FakeStripe;
let t: TestApp;
let productId: number;

beforeAll(async () => {
  fake = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  t = await createTestApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });
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

async function checkout(quantity = 1) {
  const user = await visitor(t);
  const res = await t.http
    .post("/api/OrderStripe/createCheckoutSession")
    .set("token", user.token)
    .send({ product_id: productId, agree_terms: true, quantity })
    .expect(200);
  return { ...user, ...(res.body.data as { order_id: number; order_no: string; pay_url: string; session_id: string; url: string }) };
}

function post(n: { body: string; headers: Record<string, string> }) {
  return t.http.post("/api/pay/webhook/stripe").set(n.headers).send(n.body);
}

const orderOf = (id: number) => t.db.order.findUniqueOrThrow({ where: { id } });
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

describe("Stripe Checkout", () => {
  it("creates a Checkout Session through the SDK with the order's amount, reference and return URLs", async () => {
    const c = await checkout(2);
    const session = fake.sessions.get(c.session_id)!;
    expect(c.pay_url).toBe(session.url);
    expect(c.url).toBe(session.url);
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: 2598,
      currency: "usd",
      client_reference_id: c.order_no,
      metadata: { order_no: c.order_no },
    });
    expect(session.line_items_received).toEqual({ quantity: 2, unit_amount: 1299, name: "150 credits" });
    expect(session.success_url).toBe(`${t.config.publicUrl}/hcpayPayCallback?order_id=${c.order_id}`);
    const created = fake.requests.find((r) => r.path === "/v1/checkout/sessions" && r.form.get("client_reference_id") === c.order_no)!;
    expect(created.headers["idempotency-key"]).toBe(`checkout:${c.order_no}`);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", provider: "stripe", providerRef: c.session_id });
  });

  it("a valid checkout.session.completed marks the order paid and credits it; a replay changes nothing", async () => {
    const c = await checkout();
    const n = fake.notification(fake.event("checkout.session.completed", fake.complete(c.session_id)));
    const first = await post(n).expect(200);
    expect(first.body.data).toEqual({ received: true, duplicate: false });
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
    expect(await points(c.userId)).toBe(150);
    const replay = await post(n).expect(200);
    expect(replay.body.data.duplicate).toBe(true);
    expect(await points(c.userId)).toBe(150);
  });

  it("a signed session naming one order's session and another's reference credits neither; the genuine events then pay each once", async () => {
    const a = await checkout();
    const b = await checkout();
    const crossed = { ...fake.complete(b.session_id), client_reference_id: a.order_no, metadata: { order_no: a.order_no } };
    const n = fake.notification(fake.event("checkout.session.completed", crossed));
    await Promise.all(Array.from({ length: 5 }, () => post(n).expect(200)));
    expect(await orderOf(a.order_id)).toMatchObject({ status: "pending" });
    expect(await orderOf(b.order_id)).toMatchObject({ status: "pending" });
    for (const x of [a, b]) await post(fake.notification(fake.event("checkout.session.completed", fake.complete(x.session_id)))).expect(200);
    for (const x of [a, b]) {
      expect(await orderOf(x.order_id)).toMatchObject({ status: "paid" });
      expect(await points(x.userId)).toBe(150);
    }
  });

  it("refuses a tampered notification", async () => {
    const c = await checkout();
    const n = fake.notification(fake.event("checkout.session.completed", fake.complete(c.session_id)));
    const tampered = { ...n, body: n.body.replace(`"amount_total": 1299`, `"amount_total": 1`) };
    expect(tampered.body).not.toBe(n.body);
    await post(tampered).expect(400);
    const flipped = n.headers["stripe-signature"].replace(/v1=(.)/, (_, c: string) => `v1=${c === "0" ? "1" : "0"}`);
    expect(flipped).not.toBe(n.headers["stripe-signature"]);
    await post({ ...n, headers: { ...n.headers, "stripe-signature": flipped } }).expect(400);
    await post({ body: n.body, headers: { "content-type": "application/json" } }).expect(400);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
    expect(await t.db.paymentEvent.count({ where: { orderId: c.order_id } })).toBe(0);
  });

  it("refuses a notification signed with another secret or older than 300 seconds", async () => {
    const c = await checkout();
    const event = fake.event("checkout.session.completed", fake.complete(c.session_id));
    await post(fake.notification(event, { secret: "whsec_someone_else" })).expect(400);
    await post(fake.notification(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).expect(400);
    expect(await points(c.userId)).toBe(0);
    // the same event, freshly signed, is accepted
    await post(fake.notification(event)).expect(200);
    expect(await points(c.userId)).toBe(150);
  });

  it("a delayed payment method: completed unpaid stays pending, then async_payment_succeeded pays", async () => {
    const c = await checkout();
    await post(fake.notification(fake.event("checkout.session.completed", fake.complete(c.session_id, false)))).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
    await post(fake.notification(fake.event("checkout.session.async_payment_succeeded", fake.markPaid(c.session_id)))).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
    expect(await points(c.userId)).toBe(150);
  });

  it("async_payment_failed fails the order; a failure after paid is ignored", async () => {
    const failing = await checkout();
    await post(fake.notification(fake.event("checkout.session.async_payment_failed", fake.complete(failing.session_id, false)))).expect(200);
    const q = await t.http.post("/api/order/queryPayment").set("token", failing.token).send({ order_id: failing.order_id }).expect(200);
    expect(q.body.data).toMatchObject({ order_status: "failed", message: "We're sorry, your payment didn't go through" });

    const paid = await checkout();
    const session = fake.complete(paid.session_id);
    await post(fake.notification(fake.event("checkout.session.completed", session))).expect(200);
    await post(fake.notification(fake.event("checkout.session.async_payment_failed", session))).expect(200);
    expect(await orderOf(paid.order_id)).toMatchObject({ status: "paid" });
    expect(await points(paid.userId)).toBe(150);
  });

  it("acknowledges event types it does not handle without changing anything", async () => {
    const c = await checkout();
    const res = await post(fake.notification(fake.event("customer.created", { id: "cus_1", object: "customer" }))).expect(200);
    expect(res.body.data.received).toBe(true);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
  });

  it("queryPayment asks Stripe when no webhook has arrived, and credits a verified payment once", async () => {
    const c = await checkout();
    const pending = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(pending.body.data).toMatchObject({ order_status: "pending", keep_polling: true });
    fake.complete(c.session_id);
    const paid = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(paid.body.data).toMatchObject({ order_status: "paid", paid: true });
    // the webhook arriving later credits nothing more
    await post(fake.notification(fake.event("checkout.session.completed", fake.sessions.get(c.session_id)))).expect(200);
    expect(await points(c.userId)).toBe(150);
  });

  it("answers 'Failed to create order with Stripe' when Stripe fails, and the order cannot be paid", async () => {
    fake.setDown(true);
    const user = await visitor(t);
    const res = await t.http.post("/api/OrderStripe/createCheckoutSession").set("token", user.token).send({ product_id: productId, agree_terms: true });
    expect(res.body).toEqual({ code: 502, msg: "Failed to create order with Stripe", data: null });
    const order = await t.db.order.findFirstOrThrow({ where: { userId: user.userId } });
    expect(order).toMatchObject({ status: "failed", failureReason: "checkout_failed" });
  });

  it("a staff refund goes through the session's payment intent", async () => {
    const c = await checkout();
    const session = fake.complete(c.session_id);
    await post(fake.notification(fake.event("checkout.session.completed", session))).expect(200);
    const { id: staffId } = await t.db.staff.create({ data: { username: "stripe-support", passwordHash: "x", totpSecret: "x", roles: ["support"] } });
    fake.setDown(true);
    await expect(t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "duplicate purchase" })).rejects.toMatchObject({ status: 502 });
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
    expect(await points(c.userId)).toBe(150);
    fake.setDown(false);
    await t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "duplicate purchase" });
    expect(fake.refunds.map((r) => r.payment_intent)).toContain(session.payment_intent);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
    expect(await points(c.userId)).toBe(0);
  });

  describe("refunds and disputes Stripe reports (decision 208)", () => {
    async function paid() {
      const c = await checkout();
      const session = fake.complete(c.session_id);
      await post(fake.notification(fake.event("checkout.session.completed", session))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", providerPaymentRef: session.payment_intent });
      return { ...c, intent: session.payment_intent! };
    }
    const clawbacks = (userId: number) => t.db.ledgerEntry.findMany({ where: { userId, reason: { in: ["order_refund", "chargeback"] } } });

    it("charge.refunded claws the credits back once: sent 20 times at once, replayed 100 times, and re-sent as a new event", async () => {
      const c = await paid();
      const n = fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent)));
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(n)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      for (let i = 0; i < 100; i++) await post(n).expect(200);
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent)))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -150, reason: "order_refund" }]);
    });

    it("a partial charge.refunded is recorded and takes nothing; the refund of the rest claws back; a forged one is refused", async () => {
      const c = await paid();
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent, 1299)), { secret: "whsec_other" })).expect(400);
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent, 500)))).expect(200);
      // an earlier refund's event arriving late does not lower the running total
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent, 300)))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", refundedMinor: 500 });
      expect(await points(c.userId)).toBe(150);
      // amount_refunded is cumulative: the second refund reports everything
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent, 1299)))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
    });

    it("charge.dispute.created takes back what is left, never below zero; a refund after it takes nothing more", async () => {
      const c = await paid();
      await t.services.credits.charge({ userId: c.userId, amount: 120, reason: "generation", idempotencyKey: `spend:${c.order_id}` });
      await post(fake.notification(fake.event("charge.dispute.created", fake.dispute(c.intent)))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -30, reason: "chargeback" }]);
      await post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent)))).expect(200);
      expect(await clawbacks(c.userId)).toHaveLength(1);
    });

    it("a staff refund and Stripe's charge.refunded sent at the same moment take the credits back once", async () => {
      const { id: staffId } = await t.db.staff.create({ data: { username: "stripe-race", passwordHash: "x", totpSecret: "x", roles: ["support"] } });
      for (let i = 0; i < 4; i++) {
        const c = await paid();
        await expectRefundRace(
          t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "race" }),
          post(fake.notification(fake.event("charge.refunded", fake.refundedCharge(c.intent)))).expect(200),
        );
        expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
        expect(await points(c.userId)).toBe(0);
        expect(await clawbacks(c.userId)).toHaveLength(1);
      }
    });
  });
});
