import { Address, Cell } from "@ton/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../../tests/db-utils.ts";
import { randomAddress, startFakeToncenter, type FakeToncenter } from "../../../../../tests/fixtures/fake-toncenter.ts";
import { seedProducts } from "../../products/products.seed.ts";
import { staffMember } from "../../../../../tests/staff-utils.ts";
import type { TonTransfer } from "../../../contract/wallets.ts";

const API_KEY = "toncenter-test-key-0001";
const RECEIVING = randomAddress();
/** credits_150 costs 12.99 USD; at 0.32 TON a dollar that is 4.1568 TON. */
const PRICE_NANO = 4_156_800_000n;
let fake: FakeToncenter;
let t: TestApp;
let productId: number;

beforeAll(async () => {
  fake = await startFakeToncenter({ apiKey: API_KEY });
  t = await createTestApp({ TON_RECEIVING_ADDRESS: RECEIVING.toString(), JPAY_TON_RATE: "USD=0.32", TON_API_URL: fake.url, TON_API_KEY: API_KEY });
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

async function createOrder() {
  const user = await visitor(t);
  const res = await t.http.post("/api/OrderJpay/createOrder").set("token", user.token).send({ product_id: productId, agree_terms: true }).expect(200);
  const data = res.body.data as { order_id: number; order_no: string; pay_url: string; transfer: TonTransfer };
  return { ...user, ...data };
}

const orderPay = (c: { token: string; order_no: string }, boc?: string) =>
  t.http.post("/api/OrderJpay/orderPay").set("token", c.token).send({ order_no: c.order_no, boc });
const orderOf = (id: number) => t.db.order.findUniqueOrThrow({ where: { id } });
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const purchases = (userId: number) => t.db.ledgerEntry.count({ where: { userId, reason: "purchase" } });
const pay = (c: { transfer: TonTransfer }, nanotons: bigint, over: Partial<{ comment: string; to: Address; bounced: boolean }> = {}) =>
  fake.transfer({ from: randomAddress(), to: over.to ?? RECEIVING, nanotons, comment: over.comment ?? c.transfer.comment, bounced: over.bounced });

describe("JPay: TON wallet payments verified on chain", () => {
  it("createOrder quotes the order in TON and answers what TON Connect's sendTransaction needs", async () => {
    const c = await createOrder();
    expect(c.transfer).toMatchObject({ amount: PRICE_NANO.toString(), amount_ton: "4.1568", comment: `Reverie ${c.order_no}`, network: "-239" });
    expect(Address.parse(c.transfer.address).equals(RECEIVING)).toBe(true);
    // the payload is the comment cell wallets show: op 0 then the text
    const body = Cell.fromBase64(c.transfer.payload).beginParse();
    expect(body.loadUint(32)).toBe(0);
    expect(body.loadStringTail()).toBe(c.transfer.comment);
    expect(c.transfer.valid_until).toBeGreaterThan(Date.now() / 1000);
    expect(c.pay_url).toBe(`ton://transfer/${c.transfer.address}?amount=${PRICE_NANO}&text=${encodeURIComponent(c.transfer.comment)}`);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", provider: "jpay", bonusCredits: 0 });
    const providers = await t.http.get("/api/order/paymentProviders").expect(200);
    expect(providers.body.data).toContainEqual({ provider: "jpay", methods: ["checkout"], currencies: ["USD"] });
  });

  it("nothing on chain yet: orderPay answers pending and credits nothing", async () => {
    const c = await createOrder();
    const res = await orderPay(c).expect(200);
    expect(res.body.data).toMatchObject({ order_status: "pending", keep_polling: true, paid: false, received_amount: null });
  });

  it("a paid transfer credits once when orderPay is called 20 times at once while the sweep runs", async () => {
    const c = await createOrder();
    pay(c, PRICE_NANO);
    const [answers] = await Promise.all([
      Promise.all(Array.from({ length: 20 }, (_, i) => orderPay(c, i === 0 ? "te6cckEBAQEAAgAAAEysuc0=" : undefined))),
      t.services.payments.sweepWalletOrders(),
      t.services.payments.sweepWalletOrders(),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.body.data.order_status === "paid")).toBe(true);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", receivedAmount: "4.1568", receivedCurrency: "TON" });
    expect(await points(c.userId)).toBe(150);
    expect(await purchases(c.userId)).toBe(1);
    // asked again later: the same transfer is the same fact
    await orderPay(c).expect(200);
    await t.services.payments.sweepWalletOrders();
    expect(await purchases(c.userId)).toBe(1);
  });

  it("a transfer with another comment, to another address, or bounced credits nothing", async () => {
    const c = await createOrder();
    pay(c, PRICE_NANO, { comment: "Reverie RV20260101AAAAAAAAAAAA" });
    pay(c, PRICE_NANO, { comment: `${c.transfer.comment}x` });
    pay(c, PRICE_NANO, { to: randomAddress() });
    pay(c, PRICE_NANO, { bounced: true });
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({ order_status: "pending", received_amount: null });
    await t.services.payments.sweepWalletOrders();
    expect(await points(c.userId)).toBe(0);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending", receivedAmount: null });
  });

  it("a verified fact naming one order's reference and another's number pays neither; each order's own transfer pays it once", async () => {
    const a = await createOrder();
    const b = await createOrder();
    const refB = (await orderOf(b.order_id)).providerRef!;
    const crossed = {
      eventId: `${a.order_no}:${PRICE_NANO}`,
      type: "transfer.received",
      outcome: "paid" as const,
      providerRef: refB,
      orderNo: a.order_no,
      payload: {},
    };
    expect(await t.services.orders.applyUpdate("jpay", crossed)).toMatchObject({ duplicate: false, order: null, changed: false });
    expect(await orderOf(a.order_id)).toMatchObject({ status: "pending" });
    expect(await orderOf(b.order_id)).toMatchObject({ status: "pending" });
    for (const x of [a, b]) {
      pay(x, PRICE_NANO);
      expect((await orderPay(x).expect(200)).body.data).toMatchObject({ order_status: "paid" });
      expect(await points(x.userId)).toBe(150);
    }
  });

  it("a short transfer credits nothing and shows what arrived; the rest arriving pays it", async () => {
    const c = await createOrder();
    pay(c, 2_000_000_000n);
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({
      order_status: "pending",
      keep_polling: true,
      received_amount: "2",
      received_currency: "TON",
    });
    const seen = await t.http.get("/api/order/getOrderDetail").query({ order_id: c.order_id }).set("token", c.token).expect(200);
    expect(seen.body.data).toMatchObject({ order_status: "pending", received_amount: "2", received_currency: "TON" });
    expect(await points(c.userId)).toBe(0);
    pay(c, PRICE_NANO - 2_000_000_000n);
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({ order_status: "paid", received_amount: "4.1568" });
    expect(await points(c.userId)).toBe(150);
  });

  it("an over-payment is credited as the order, once, and the order records what arrived", async () => {
    const c = await createOrder();
    pay(c, 5_000_000_000n);
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({ order_status: "paid", received_amount: "5", received_currency: "TON" });
    expect(await points(c.userId)).toBe(150);
    expect(await purchases(c.userId)).toBe(1);
  });

  it("a buyer who closed the app is credited by the sweep, even after the order expired", async () => {
    const c = await createOrder();
    await t.services.payments.expireAbandoned(new Date(Date.now() + 3600_000));
    expect(await orderOf(c.order_id)).toMatchObject({ status: "expired" });
    pay(c, PRICE_NANO);
    expect(await t.services.payments.sweepWalletOrders()).toBeGreaterThanOrEqual(1);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
    expect(await points(c.userId)).toBe(150);
  });

  it("a sweep looks up 10 waiting orders with one TON API call, and pays each order whose transfer is there (decision 220)", async () => {
    const waiting = await Promise.all(Array.from({ length: 10 }, () => createOrder()));
    for (const c of waiting.slice(0, 6)) pay(c, PRICE_NANO);
    pay(waiting[6], 1_000_000_000n);
    const before = fake.queries.length;
    expect(await t.services.payments.sweepWalletOrders()).toBe(6);
    expect(fake.queries.length - before).toBe(1);
    expect(fake.queries.at(-1)!.get("limit")).toBe("1000");
    for (const c of waiting.slice(0, 6)) {
      expect(await orderOf(c.order_id)).toMatchObject({ status: "paid" });
      expect(await purchases(c.userId)).toBe(1);
    }
    expect(await orderOf(waiting[6].order_id)).toMatchObject({ status: "pending", receivedAmount: "1" });
    expect(await orderOf(waiting[7].order_id)).toMatchObject({ status: "pending", receivedAmount: null });
    // a second round finds the same facts: nothing moves twice
    expect(await t.services.payments.sweepWalletOrders()).toBe(0);
    for (const c of waiting.slice(0, 6)) expect(await points(c.userId)).toBe(150);
  });

  it("a busy address is walked page by page by logical time, and a transfer past the first page is found", async () => {
    const c = await createOrder();
    for (let i = 0; i < 1000; i++) fake.transfer({ from: randomAddress(), to: RECEIVING, nanotons: 1n, comment: `someone else ${i}` });
    pay(c, PRICE_NANO);
    const before = fake.queries.length;
    expect(await t.services.payments.sweepWalletOrders()).toBe(1);
    const calls = fake.queries.slice(before);
    expect(calls).toHaveLength(2);
    expect(calls[0].get("start_lt")).toBeNull();
    expect(BigInt(calls[1].get("start_lt")!)).toBeGreaterThan(0n);
    expect(await points(c.userId)).toBe(150);
  });

  it("the browser's queryPayment polling finds the transfer too", async () => {
    const c = await createOrder();
    pay(c, PRICE_NANO);
    const res = await t.http.post("/api/order/queryPayment").set("token", c.token).send({ order_id: c.order_id }).expect(200);
    expect(res.body.data).toMatchObject({ order_status: "paid", paid: true });
    expect(await points(c.userId)).toBe(150);
  });

  it("one buyer cannot ask about another's order", async () => {
    const c = await createOrder();
    const other = await visitor(t);
    pay(c, PRICE_NANO);
    await orderPay({ token: other.token, order_no: c.order_no }).expect(404);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "pending" });
  });

  it("the TON API being down answers the stored status, and the lookup succeeds later", async () => {
    const c = await createOrder();
    pay(c, PRICE_NANO);
    fake.setDown(true);
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
    fake.setDown(false);
    expect((await orderPay(c).expect(200)).body.data).toMatchObject({ order_status: "paid" });
  });

  it("a staff refund takes the credits back once and records the reference of the TON sent back by hand (decision 220)", async () => {
    const c = await createOrder();
    pay(c, 5_000_000_000n);
    await orderPay(c).expect(200);
    const support = await staffMember(t, ["support"]);
    const admin = (path: string, body?: object) =>
      (body ? t.http.post(`/admin/api/orders/${c.order_id}/${path}`).send(body) : t.http.get(`/admin/api/orders/${c.order_id}/${path}`)).set(
        "token",
        support.token,
      );
    const preview = await admin("refund-preview").expect(200);
    // the console tells the agent what must go back by hand: what arrived, not the quote
    expect(preview.body).toMatchObject({ credits: 150, claw_back: 150, already_spent: 0, return_by_hand: { amount: "5", currency: "TON" } });
    // no reference: nothing happens, and the order can still be refunded
    const missing = await admin("refund", { reason: "wrong plan", acknowledged_spent: 0 });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 400, msg: "Send the money back from the receiving wallet first, then enter the reference of that transfer" });
    expect(await orderOf(c.order_id)).toMatchObject({ status: "paid", refundStartedAt: null });
    expect(await points(c.userId)).toBe(150);
    const reference = "b2e1a7c4f0d94e33a1c8e2f5d6b7a8c9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5";
    const answers = await Promise.all(Array.from({ length: 20 }, () => admin("refund", { reason: "wrong plan", acknowledged_spent: 0, reference })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(await orderOf(c.order_id)).toMatchObject({ status: "refunded" });
    expect(await points(c.userId)).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: c.userId, reason: "order_refund" } })).toBe(1);
    const audit = await t.db.auditLog.findMany({ where: { resource: "Order", resourceId: String(c.order_id) } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: support.staffId,
      action: "refund_order",
      reason: "wrong plan",
      after: { credits_taken_back: 150, returned_by_hand: { amount: "5", currency: "TON", reference } },
    });
  });

  it("orderPay refuses an order number that is not a wallet order", async () => {
    const user = await visitor(t);
    await orderPay({ token: user.token, order_no: "RV20260101NOSUCHORDER" }).expect(404);
    await t.http.post("/api/OrderJpay/orderPay").set("token", user.token).send({ order_no: "not an order" }).expect(400);
  });
});

describe("JPay not configured", () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await createTestApp({ TON_API_URL: fake.url });
    await seedProducts(bare.db);
  });
  afterAll(() => bare.close());

  it("is absent from the buy dialog and createOrder says so before anything is created", async () => {
    const providers = await bare.http.get("/api/order/paymentProviders").expect(200);
    expect((providers.body.data as { provider: string }[]).map((p) => p.provider)).not.toContain("jpay");
    const user = await visitor(bare);
    const pid = (await bare.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
    // the provider's amounts below are this pack at $12.99, whatever the seeded catalogue charges
    await bare.db.product.update({ where: { code: "credits_150" }, data: { prices: [{ currency: "USD", priceMinor: 1299, salePriceMinor: null }] } });
    const res = await bare.http.post("/api/OrderJpay/createOrder").set("token", user.token).send({ product_id: pid, agree_terms: true }).expect(503);
    expect(res.body.msg).toBe("Payment function temporarily unavailable");
    expect(await bare.db.order.count()).toBe(0);
    expect(await bare.services.payments.sweepWalletOrders()).toBe(0);
  });

  it("a rate in euros charges a product's euro price; a product without one is refused before any order (decision 300)", async () => {
    const eur = await createTestApp({ TON_RECEIVING_ADDRESS: RECEIVING.toString(), JPAY_TON_RATE: "EUR=0.35", TON_API_URL: fake.url });
    try {
      await seedProducts(eur.db);
      const user = await visitor(eur);
      const providers = (await eur.http.get("/api/order/paymentProviders").expect(200)).body.data;
      expect(providers).toContainEqual({ provider: "jpay", methods: ["checkout"], currencies: ["EUR"] });
      const buy = async (code: string) => {
        const { id } = await eur.db.product.findUniqueOrThrow({ where: { code } });
        return eur.http.post("/api/OrderJpay/createOrder").set("token", user.token).send({ product_id: id, agree_terms: true, currency: "USD" });
      };
      // the visitor's dollars are not what JPay charges: the seeded euro price is, and the TON quoted is that price's
      const opened = await buy("credits_150");
      expect(opened.status).toBe(200);
      const paid = opened.body.data as { order_no: string; transfer: TonTransfer };
      expect(await eur.db.order.findUniqueOrThrow({ where: { orderNo: paid.order_no } })).toMatchObject({ currency: "EUR", finalPriceMinor: 7499 });
      expect(paid.transfer.amount).toBe(String(26_246_500_000n));
      await eur.db.product.update({ where: { code: "credits_50" }, data: { prices: [{ currency: "USD", priceMinor: 2999, salePriceMinor: null }] } });
      const refused = await buy("credits_50");
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe("This product cannot be paid in EUR; please choose another payment method");
      expect(await eur.db.order.count({ where: { userId: user.userId } })).toBe(1);
    } finally {
      await eur.close();
    }
  });
});
