import crypto from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeSmtp, type FakeSmtp } from "../../../../tests/fixtures/smtp.ts";
import { signNotification } from "../payments/providers/signature.ts";
import { seedProducts } from "../products/products.seed.ts";

const SECRET = "sandbox-test-secret-0123456789";
let t: TestApp;
let smtp: FakeSmtp;
let pack: number;

beforeAll(async () => {
  smtp = await startFakeSmtp();
  t = await createTestApp({ SANDBOX_WEBHOOK_SECRET: SECRET, EMAIL_CODE_RESEND_SECONDS: "0", SMTP_URL: smtp.url });
  await seedProducts(t.db);
  pack = (await t.db.product.findFirstOrThrow({ where: { code: "credits_150" } })).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
afterEach(async () => {
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

const newEmail = () => `save${crypto.randomBytes(5).toString("hex")}@example.com`;
const balance = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;

async function priceOf(orderNo: string): Promise<number> {
  return (await t.db.order.findUniqueOrThrow({ where: { orderNo } })).finalPriceMinor;
}

/** A guest buys the 150-credit pack through the test checkout, and the sandbox reports it paid (signed, as it sends it). */
async function guestWhoPaid() {
  const guest = await visitor(t);
  const created = (
    await t.http.post("/api/order/createOrderAndPay").set("token", guest.token).send({ product_id: pack, provider: "sandbox", agree_terms: true }).expect(200)
  ).body.data;
  const body = JSON.stringify({
    id: `sbevt_${crypto.randomBytes(6).toString("hex")}`,
    type: "payment.succeeded",
    created: Math.floor(Date.now() / 1000),
    // the amount the order asks, whatever the seeded catalogue charges for the pack
    data: { session_id: created.session_id, order_no: created.order_no, amount: await priceOf(created.order_no), currency: "USD", status: "succeeded" },
  });
  await t.http
    .post("/api/pay/webhook/sandbox")
    .set("content-type", "application/json")
    .set("sandbox-signature", signNotification(SECRET, body))
    .send(body)
    .expect(200);
  expect(await balance(guest.userId)).toBe(150);
  return { ...guest, orderId: created.order_id as number };
}

/** The guest saves the account: the emailed code, sent with the guest's token, as the app's "Save your account" does. */
async function save(token: string, email: string) {
  await t.http.post("/api/login/sendEmailCode").set("token", token).send({ email }).expect(200);
  const res = await t.http
    .post("/api/login/emailLogin")
    .set("token", token)
    .send({ email, code: smtp.codeFor(email) })
    .expect(200);
  return { token: res.body.data.token as string, userId: res.body.data.user_info.id as number };
}

const ordersOf = async (token: string) => (await t.http.get("/api/order/getUserOrders").set("token", token).expect(200)).body.data;

describe("a guest who paid saves the account (issue 30 item 5)", () => {
  it("with a new email: the same account, registered, keeps the purchase and its credits", async () => {
    const guest = await guestWhoPaid();
    const saved = await save(guest.token, newEmail());
    expect(saved.userId).toBe(guest.userId);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: saved.userId } })).toMatchObject({ loginType: "registered", points: 150 });
    expect(JSON.stringify(await ordersOf(saved.token))).toContain(`"order_id":${guest.orderId}`);
  });

  it("with the email of an existing account: the purchase and the credits move to that account", async () => {
    const email = newEmail();
    const existing = await save((await visitor(t)).token, email);
    const guest = await guestWhoPaid();
    const saved = await save(guest.token, email);
    expect(saved.userId).toBe(existing.userId);
    expect(await balance(existing.userId)).toBe(150);
    expect(await balance(guest.userId)).toBe(0);
    expect((await t.db.order.findUniqueOrThrow({ where: { id: guest.orderId } })).userId).toBe(existing.userId);
    expect(JSON.stringify(await ordersOf(saved.token))).toContain(`"order_id":${guest.orderId}`);
    // the guest's own login is over: the purchase is reached only through the saved account now
    await t.http.get("/api/order/getUserOrders").set("token", guest.token).expect(401);
  });
});
