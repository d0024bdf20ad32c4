import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { expectRefundRace } from "../../../../../tests/order-utils.ts";
import { startFakePagsmile, type FakePagsmile, type FakeTrade } from "../../../../../tests/fixtures/fake-pagsmile.ts";
import { seedProducts } from "../../products/products.seed.ts";

const APP_ID = "1625829214531663";
const KEY = "Pagsmile_sk_test_reverie_fake_key";
let fake: FakePagsmile;
let t: TestApp;
let productId: number;

beforeAll(async () => {
  fake = await startFakePagsmile({ appId: APP_ID, securityKey: KEY });
  t = await createTestApp({ PAGSMILE_APP_ID: APP_ID, PAGSMILE_SECURITY_KEY: KEY, PAGSMILE_API_BASE: fake.url, PAGSMILE_METHOD_CODES: "sbp=SBP,tpay=TPay" });
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

async function checkout(call = "createOrderAndPay", extra: Record<string, unknown> = { provider: "pagsmile" }) {
  const user = await visitor(t);
  const res = await t.http
    .post(`/api/order/${call}`)
    .set("token", user.token)
    .send({ product_id: productId, agree_terms: true, ...extra })
    .expect(200);
  const data = res.body.data as { order_id: number; order_no: string; pay_url: string; session_id: string };
  return { ...user, ...data, trade: fake.byOrderNo(data.order_no) };
}

const notify = (n: { body: string; headers: Record<string, string> }) => t.http.post("/api/order/pagsmileNotify").set(n.headers).send(n.body);
const orderOf = (id: number) => t.db.order.findUniqueOrThrow({ where: { id } });
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

describe("Pagsmile", () => {
  it("opens the hosted checkout with the order's amount and the callback route, and lists the configured methods", async () => {
    const c = await checkout();
    expect(c.trade).toMatchObject({
      kind: "create",
      method: "",
      order_amount: "12.99",
      order_currency: "USD",
      notify_url: `${t.config.publicUrl}/api/order/pagsmileNotify`,
      return_url: `${t.config.publicUrl}/pagsmileCallback?order_id=${c.order_id}`,
    });
    expect(c.pay_url).toBe(
      `${fake.url}/checkout?prepay_id=${new URL(c.pay_url).searchParams.get("prepay_id")}&return_url=${encodeURIComponent(c.trade.return_url)}`,
    );
    expect(fake.requests.at(-1)?.authorization).toBe(`Basic ${Buffer.from(`${APP_ID}:${KEY}`).toString("base64")}`);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", provider: "pagsmile", providerRef: c.trade.trade_no });
    const list = await t.http.get("/api/order/paymentProviders").expect(200);
    expect(list.body.data).toContainEqual({ provider: "pagsmile", methods: ["checkout", "recurring", "sbp", "tpay"], currencies: ["USD", "RUB"] });
  });

  it("the SPEC calls open the local methods; TPay comes back to /tpayCallback; an unconfigured method charges nothing", async () => {
    const sbp = await checkout("createPagsmileSBPPayment", {});
    expect(sbp.trade).toMatchObject({ kind: "create", method: "SBP" });
    const tpay = await checkout("createPagsmileTPayPayment", {});
    expect(tpay.trade).toMatchObject({ method: "TPay", return_url: `${t.config.publicUrl}/tpayCallback?order_id=${tpay.order_id}` });
    const user = await visitor(t);
    const before = fake.trades.size;
    const sber = await t.http.post("/api/order/createPagsmileSberPayPayment").set("token", user.token).send({ product_id: productId, agree_terms: true });
    expect(sber.body).toMatchObject({ code: 503, msg: "Payment function temporarily unavailable" });
    expect(fake.trades.size).toBe(before);
    expect(await t.db.order.count({ where: { userId: user.userId } })).toBe(0);
  });

  it("a paid notification credits once: replayed 100 times and sent 20 times at once", async () => {
    const c = await checkout();
    const n = fake.notification(fake.settle(c.trade.trade_no, "SUCCESS"));
    const first = await notify(n).expect(200);
    expect(first.text).toBe("success");
    expect(first.headers["content-type"]).toMatch(/^text\/plain/);
    for (let i = 0; i < 100; i++) await notify(n).expect(200);
    const c2 = await checkout();
    const n2 = fake.notification(fake.settle(c2.trade.trade_no, "SUCCESS"));
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n2)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    for (const x of [c, c2]) {
      expect(await orderOf(x.order_id)).toMatchObject({ status: "paid" });
      expect(await points(x.userId)).toBe(150);
      expect(await t.db.ledgerEntry.count({ where: { userId: x.userId } })).toBe(1);
    }
  });

  it("a bad signature, a stale or unsigned timestamp, another app, or a wrong amount or currency credit nothing", async () => {
    const c = await checkout();
    const trade = fake.settle(c.trade.trade_no, "SUCCESS");
    const good = fake.notification(trade);
    await notify(fake.notification(trade, { key: "someone_else" })).expect(400);
    await notify({ ...good, body: good.body.replace('"amount":"12.99"', '"amount":"0.01"') }).expect(400);
    await notify({ body: good.body, headers: { "content-type": "application/json" } }).expect(400);
    const old = Math.floor(Date.now() / 1000) - 301;
    await notify(fake.notification(trade, { timestamp: old })).expect(400);
    // a fresh header time on an old signed body: t is outside the HMAC, so it must equal the signed timestamp
    await notify(fake.notification(trade, { timestamp: old, headerTimestamp: Math.floor(Date.now() / 1000) })).expect(400);
    expect(await points(c.userId)).toBe(0);
    await notify(fake.notification(trade, { amount: "1.00" })).expect(200);
    await notify(fake.notification(trade, { currency: "BRL" })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", failureReason: "amount_mismatch" });
    expect(await points(c.userId)).toBe(0);
  });

  it("a signed notification naming two orders credits neither and leaves both genuine notifications their slot", async () => {
    const a = await checkout();
    const b = await checkout();
    const tradeB = fake.settle(b.trade.trade_no, "SUCCESS");
    // B's trade_no with A's out_trade_no, sent 5 times at once and then again
    const crossed = fake.notification(tradeB, { outTradeNo: a.order_no });
    const answers = await Promise.all(Array.from({ length: 5 }, () => notify(crossed)));
    expect(answers.map((x) => x.status)).toEqual(Array(5).fill(200));
    await notify(crossed).expect(200);
    expect(await orderOf(a.order_id)).toMatchObject({ status: "pending" });
    expect(await orderOf(b.order_id)).toMatchObject({ status: "pending" });
    expect(await points(a.userId)).toBe(0);
    // recorded once, under a name of its own
    const refused = await t.db.paymentEvent.findMany({ where: { provider: "pagsmile", eventId: { startsWith: `refused:${b.trade.trade_no}:` } } });
    expect(refused).toHaveLength(1);
    await notify(fake.notification(tradeB)).expect(200);
    await notify(fake.notification(fake.settle(a.trade.trade_no, "SUCCESS"))).expect(200);
    for (const x of [a, b]) {
      expect(await orderOf(x.order_id)).toMatchObject({ status: "paid" });
      expect(await points(x.userId)).toBe(150);
    }
  });

  it("a signed notification refused for a wrong amount does not burn the genuine one for the same state", async () => {
    const c = await checkout();
    const trade = fake.settle(c.trade.trade_no, "SUCCESS");
    await notify(fake.notification(trade, { amount: "0.01" })).expect(200);
    await notify(fake.notification(trade, { currency: "BRL" })).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", failureReason: "amount_mismatch" });
    await notify(fake.notification(trade)).expect(200);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", failureReason: null });
    expect(await points(c.userId)).toBe(150);
    expect(await t.db.ledgerEntry.count({ where: { userId: c.userId } })).toBe(1);
  });

  it("PROCESSING keeps the buyer polling (3ds_pending); REFUSED ends it unsuccessfully", async () => {
    const c = await checkout();
    await notify(fake.notification(fake.settle(c.trade.trade_no, "PROCESSING"))).expect(200);
    const q = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(q.body.data).toMatchObject({ order_status: "3ds_pending", keep_polling: true });
    await notify(fake.notification(fake.settle(c.trade.trade_no, "REFUSED"))).expect(200);
    const q2 = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(q2.body.data).toMatchObject({ order_status: "failed", keep_polling: false, message: "We're sorry, your payment didn't go through" });
    expect(await points(c.userId)).toBe(0);
  });

  it("queryPayment asks Pagsmile (/trade/query) when no notification came, and credits once", async () => {
    const c = await checkout();
    const pending = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(pending.body.data).toMatchObject({ order_status: "pending", keep_polling: true });
    fake.settle(c.trade.trade_no, "SUCCESS");
    const paid = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(paid.body.data).toMatchObject({ order_status: "paid", paid: true });
    await notify(fake.notification(c.trade)).expect(200);
    expect(await points(c.userId)).toBe(150);
  });

  it("a staff refund goes through /trade/refund once and claws the credits back once", async () => {
    const c = await checkout();
    await notify(fake.notification(fake.settle(c.trade.trade_no, "SUCCESS"))).expect(200);
    const { id: staffId } = await t.db.staff.create({ data: { username: "pagsmile-support", passwordHash: "x", totpSecret: "x", roles: ["support"] } });
    await t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "asked by the buyer" });
    await expect(t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "asked by the buyer" })).rejects.toMatchObject({ status: 409 });
    expect(c.trade.refunds).toEqual([{ out_request_no: expect.stringMatching(/^[0-9a-f]{16}$/), refund_amount: "12.99" }]);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
    expect(await points(c.userId)).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: c.userId, reason: "order_refund" } })).toBe(1);
  });

  describe("refunds and chargebacks Pagsmile reports (decision 208)", () => {
    async function paid() {
      const c = await checkout();
      await notify(fake.notification(fake.settle(c.trade.trade_no, "SUCCESS"))).expect(200);
      expect(await points(c.userId)).toBe(150);
      return c;
    }
    const clawbacks = (userId: number) => t.db.ledgerEntry.findMany({ where: { userId, reason: { in: ["order_refund", "chargeback"] } } });

    it("a REFUNDED notification claws the credits back once: sent 20 times at once, then replayed 100 times", async () => {
      const c = await paid();
      const trade = fake.refundInDashboard(c.trade.trade_no);
      const n = fake.notification(trade, { refund: trade.refunds[0] });
      const answers = await Promise.all(Array.from({ length: 20 }, () => notify(n)));
      expect(answers.map((a) => a.text)).toEqual(Array(20).fill("success"));
      for (let i = 0; i < 100; i++) await notify(n).expect(200);
      // the same refund delivered again later: a fresh timestamp, the same refund order
      await notify(fake.notification(trade, { refund: trade.refunds[0] })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -150, reason: "order_refund", idempotencyKey: `order:${c.order_id}:refund` }]);
      const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Order", resourceId: String(c.order_id) } });
      expect(audit).toMatchObject({ staffId: null, action: "provider_refund", after: { status: "refunded", credits_taken_back: 150, already_spent: 0 } });
      const q = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
      expect(q.body.data).toMatchObject({ order_status: "refunded", paid: false, keep_polling: false });
    });

    it("a chargeback takes back only what is left (never below zero) and records what was spent; a later refund takes nothing more", async () => {
      const c = await paid();
      await t.services.credits.charge({ userId: c.userId, amount: 100, reason: "generation", idempotencyKey: `spend:${c.order_id}` });
      await notify(fake.notification(fake.settle(c.trade.trade_no, "DISPUTE"))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
      await notify(fake.notification(fake.settle(c.trade.trade_no, "CHARGEBACK"))).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toMatchObject([{ delta: -50, reason: "chargeback" }]);
      const audit = await t.db.auditLog.findFirstOrThrow({ where: { resource: "Order", resourceId: String(c.order_id) } });
      expect(audit).toMatchObject({ action: "provider_chargeback", after: { credits_taken_back: 50, already_spent: 100 } });
      const trade = fake.refundInDashboard(c.trade.trade_no);
      await notify(fake.notification(trade, { refund: trade.refunds[0] })).expect(200);
      await notify(fake.notification(fake.settle(c.trade.trade_no, "CHARGEBACK_REVERSED"))).expect(200);
      expect(await clawbacks(c.userId)).toHaveLength(1);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
    });

    it("a partial refund is recorded on the order and takes nothing back; the refund that completes it claws back once", async () => {
      const c = await paid();
      let trade = fake.refundInDashboard(c.trade.trade_no, "5.00");
      await notify(fake.notification(trade, { refund: trade.refunds[0] })).expect(200);
      await notify(fake.notification(trade, { refund: trade.refunds[0] })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", refundedMinor: 500 });
      expect(await points(c.userId)).toBe(150);
      const detail = await t.http.get(`/api/order/getOrderDetail?order_id=${c.order_id}`).set("token", c.token).expect(200);
      expect(detail.body.data).toMatchObject({ refunded_amount: 500 });
      trade = fake.refundInDashboard(c.trade.trade_no, "7.99");
      await notify(fake.notification(trade, { refund: trade.refunds[1] })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded", refundedMinor: 1299 });
      expect(await points(c.userId)).toBe(0);
      expect(await clawbacks(c.userId)).toHaveLength(1);
    });

    it("a refund notification for an order never paid, or in another currency, takes nothing", async () => {
      const c = await checkout();
      const trade = fake.refundInDashboard(c.trade.trade_no);
      await notify(fake.notification(trade, { refund: trade.refunds[0] })).expect(200);
      expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
      const p = await paid();
      const t2 = fake.refundInDashboard(p.trade.trade_no);
      await notify(fake.notification(t2, { refund: t2.refunds[0], currency: "BRL" })).expect(200);
      expect(await orderOf(p.order_id)).toMatchObject({ status: "paid" });
      expect(await points(p.userId)).toBe(150);
    });

    it("a staff refund and Pagsmile's notification of that refund take the credits back once, whichever comes first", async () => {
      const { id: staffId } = await t.db.staff.create({
        data: { username: `race-${crypto.randomUUID().slice(0, 8)}`, passwordHash: "x", totpSecret: "x", roles: ["support"] },
      });
      const refundOf = (trade: FakeTrade) => fake.notification(trade, { refund: trade.refunds[0] });
      // the notification arrives while Pagsmile's answer to /trade/refund is still on its way
      const inBetween = await paid();
      fake.beforeRefundAnswer(async (trade) => void (await notify(refundOf(trade)).expect(200)));
      const view = await t.services.payments.refundOrder({ orderId: inBetween.order_id, staffId, reason: "race" });
      fake.beforeRefundAnswer(undefined);
      expect(view).toMatchObject({ order_status: "refunded" });
      const audits = await t.db.auditLog.findMany({ where: { resource: "Order", resourceId: String(inBetween.order_id) }, orderBy: { id: "asc" } });
      expect(audits).toMatchObject([
        { staffId: null, action: "provider_refund", after: { credits_taken_back: 150 } },
        { staffId, action: "refund_order", after: { credits_taken_back: 0, taken_back_by: "provider_notification" } },
      ]);
      // and both sent at the same moment, several times over
      const raced = [];
      for (let i = 0; i < 4; i++) {
        const c = await paid();
        const refund = { out_request_no: crypto.createHash("sha256").update(`refund:${c.order_no}`).digest("hex").slice(0, 16), refund_amount: "12.99" };
        await expectRefundRace(
          t.services.payments.refundOrder({ orderId: c.order_id, staffId, reason: "race" }),
          notify(fake.notification({ ...c.trade, trade_status: "REFUNDED" }, { refund })).expect(200),
        );
        raced.push(c);
      }
      for (const c of [inBetween, ...raced]) {
        expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
        expect(await points(c.userId)).toBe(0);
        expect(await clawbacks(c.userId)).toHaveLength(1);
      }
    });
  });
});
