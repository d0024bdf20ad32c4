import { beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../../../../tests/db-utils.ts";
import { sandboxServerForThisFile, type SandboxServer } from "../../../../../tests/sandbox-server.ts";
import { staffMember } from "../../../../../tests/staff-utils.ts";
import { seedProducts } from "../../products/products.seed.ts";

const sandbox = sandboxServerForThisFile();
const api = sandbox.api;
let s: SandboxServer;
let productId: number;

beforeAll(async () => {
  s = sandbox.server();
  productId = (await s.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
  // the provider's amounts below are this pack at $12.99, whatever the seeded catalogue charges
  await s.db.product.update({ where: { code: "credits_150" }, data: { prices: [{ currency: "USD", priceMinor: 1299, salePriceMinor: null }] } });
});

async function buyer() {
  const res = await api("/api/login/visitor", "", {});
  const token = res.data.token as string;
  const order = await api("/api/order/createOrderAndPay", token, { product_id: productId, provider: "sandbox", agree_terms: true });
  expect(order.code).toBe(200);
  return { token, userId: res.data.user_info.id as number, ...(order.data as { order_id: number; order_no: string; pay_url: string }) };
}

const form = (url: string, fields: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });

const status = async (token: string, orderId: number) => (await api("/api/order/queryPayment", token, { order_id: orderId })).data;

describe("sandbox checkout", () => {
  it("Pay: pending -> paid, credited once, back to the callback route", async () => {
    const b = await buyer();
    expect(b.pay_url).toBe(`${s.url}/sandbox-pay/${b.pay_url.split("/").pop()}`);
    expect((await status(b.token, b.order_id)).order_status).toBe("pending");
    const page = await fetch(b.pay_url);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain("Pay with 3-D Secure");
    expect(text).toContain("$12.99");
    const res = await form(`${b.pay_url}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${s.url}/hcpayPayCallback?order_id=${b.order_id}`);
    // paid by the signed notification before the redirect, not by the status query
    expect((await s.db.order.findUniqueOrThrow({ where: { id: b.order_id } })).status).toBe("paid");
    expect((await s.db.paymentEvent.findMany({ where: { orderId: b.order_id } })).map((e) => e.type)).toEqual(["payment.succeeded"]);
    expect(await status(b.token, b.order_id)).toMatchObject({
      order_status: "paid",
      paid: true,
      keep_polling: false,
      poll_interval_ms: 2000,
      poll_max_tries: 50,
    });
    expect((await api("/api/Personal/select_users_integral", b.token)).data).toEqual({ points: 150, all_points: 150 });
    // a second click changes nothing and shows the closed checkout
    const again = await form(`${b.pay_url}/pay`);
    expect([again.status, again.headers.get("location")]).toEqual([303, `/sandbox-pay/${b.pay_url.split("/").pop()}?lang=en`]);
    expect((await fetch(`${s.url}${again.headers.get("location")}`)).status).toBe(410);
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(150);
  });

  it("Pay with 3-D Secure: pending -> 3ds_pending -> challenge -> paid", async () => {
    const b = await buyer();
    const started = await form(`${b.pay_url}/3ds?lang=en`);
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toMatch(/\/challenge\?lang=en$/);
    expect((await s.db.order.findUniqueOrThrow({ where: { id: b.order_id } })).status).toBe("threeDsPending");
    expect(await status(b.token, b.order_id)).toMatchObject({ order_status: "3ds_pending", keep_polling: true });
    const challenge = await fetch(`${b.pay_url}/challenge`);
    expect(await challenge.text()).toContain("Your bank asks you to confirm this payment of $12.99.");
    // the checkout page itself now sends the buyer to the challenge
    expect((await fetch(b.pay_url, { redirect: "manual" })).status).toBe(303);
    const done = await form(`${b.pay_url}/challenge`, { result: "pass" });
    expect(done.headers.get("location")).toBe(`${s.url}/hcpayPayCallback?order_id=${b.order_id}`);
    expect((await status(b.token, b.order_id)).order_status).toBe("paid");
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(150);
  });

  it("a failed 3-D Secure challenge fails the order", async () => {
    const b = await buyer();
    await form(`${b.pay_url}/3ds`);
    await form(`${b.pay_url}/challenge`, { result: "fail" });
    expect(await status(b.token, b.order_id)).toMatchObject({ order_status: "failed", message: "We're sorry, your payment didn't go through" });
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(0);
  });

  it("Decline: pending -> failed with the SPEC message, no credits", async () => {
    const b = await buyer();
    const res = await form(`${b.pay_url}/decline`);
    expect(res.headers.get("location")).toBe(`${s.url}/hcpayPayCallback?order_id=${b.order_id}`);
    expect(await status(b.token, b.order_id)).toMatchObject({
      order_status: "failed",
      paid: false,
      keep_polling: false,
      message: "We're sorry, your payment didn't go through",
    });
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(0);
    expect((await fetch(b.pay_url)).status).toBe(410);
  });

  it("abandoned: the sweep expires the order and the checkout closes", async () => {
    const b = await buyer();
    const later = new Date(Date.now() + (s.config.ORDER_EXPIRY_MINUTES + 1) * 60_000);
    expect(await s.services.payments.expireAbandoned(new Date())).toBe(0);
    expect(await s.services.payments.expireAbandoned(later)).toBeGreaterThanOrEqual(1);
    expect(await status(b.token, b.order_id)).toMatchObject({
      order_status: "expired",
      keep_polling: false,
      message: "Payment failed, please try again later",
    });
    // the provider side lapses at the same moment
    await s.db.sandboxSession.updateMany({ where: { orderNo: b.order_no }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const page = await fetch(`${b.pay_url}?lang=en`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This checkout has expired");
    const late = await form(`${b.pay_url}/pay?lang=en`);
    expect(await (await fetch(`${s.url}${late.headers.get("location")}`)).text()).toContain("This checkout has expired");
    expect((await status(b.token, b.order_id)).order_status).toBe("expired");
  });

  it("speaks the buyer's language from ?lang or Accept-Language", async () => {
    const b = await buyer();
    expect(await (await fetch(`${b.pay_url}?lang=ja`)).text()).toContain("3-Dセキュアで支払う");
    expect(await (await fetch(b.pay_url, { headers: { "accept-language": "ru-RU,ru;q=0.9" } })).text()).toContain("Оплатить с 3-D Secure");
    expect(await (await fetch(b.pay_url, { headers: { "accept-language": "ko" } })).text()).toContain("3-D 보안으로 결제");
    expect(await (await fetch(b.pay_url, { headers: { "accept-language": "de" } })).text()).toContain("Pay with 3-D Secure");
  });

  it("refuses a notification with a wrong signature and changes nothing", async () => {
    const b = await buyer();
    const session = b.pay_url.split("/").pop()!;
    const body = JSON.stringify({
      id: "sbevt_forged",
      type: "payment.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: { session_id: session, order_no: b.order_no, amount: 1299, currency: "USD", status: "succeeded" },
    });
    const res = await fetch(`${s.url}/api/pay/webhook/sandbox`, {
      method: "POST",
      headers: { "content-type": "application/json", "sandbox-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
      body,
    });
    expect(res.status).toBe(400);
    expect((await status(b.token, b.order_id)).order_status).toBe("pending");
  });
});

describe("refunds", () => {
  const staff = () => s.db.staff.create({ data: { username: `support${Math.random()}`, passwordHash: "x", totpSecret: "x", roles: ["support"] } });

  it("a staff refund returns the money, takes back the credits and writes the audit row", async () => {
    const b = await buyer();
    await form(`${b.pay_url}/pay`);
    const { id: staffId } = await staff();
    await expect(s.services.payments.refundOrder({ orderId: b.order_id, staffId, reason: " " })).rejects.toMatchObject({ status: 400 });
    const refunded = await s.services.payments.refundOrder({ orderId: b.order_id, staffId, reason: "customer asked" });
    expect(refunded.order_status).toBe("refunded");
    expect((await s.db.sandboxSession.findFirstOrThrow({ where: { orderNo: b.order_no } })).status).toBe("refunded");
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(0);
    expect(await s.db.auditLog.findFirst({ where: { resource: "Order", resourceId: String(b.order_id) } })).toMatchObject({
      staffId,
      action: "refund_order",
      reason: "customer asked",
    });
    await expect(s.services.payments.refundOrder({ orderId: b.order_id, staffId, reason: "again" })).rejects.toMatchObject({
      status: 409,
      message: "Only a paid order can be refunded",
    });
    // a paid notification arriving late does not pay a refunded order again
    expect((await status(b.token, b.order_id)).order_status).toBe("refunded");
  });

  it("from the console: support previews (what was spent), refunds once; the clawback stops at zero; others may not", async () => {
    const b = await buyer();
    await form(`${b.pay_url}/pay`);
    await s.services.credits.charge({ userId: b.userId, amount: 10, reason: "generation", idempotencyKey: `spend:${b.order_id}` });
    const support = await staffMember(s, ["support"]);
    const marketer = await staffMember(s, ["marketer"]);
    const admin = (path: string, token: string, body?: unknown) =>
      fetch(`${s.url}/admin/api/orders/${b.order_id}/${path}`, {
        method: body ? "POST" : "GET",
        headers: { token, "content-type": "application/json" },
        body: body ? JSON.stringify(body) : undefined,
      });
    expect((await admin("refund-preview", marketer.token)).status).toBe(403);
    expect((await admin("refund", marketer.token, { reason: "not mine", acknowledged_spent: 10 })).status).toBe(403);
    const preview = await (await admin("refund-preview", support.token)).json();
    expect(preview).toEqual({ order_id: b.order_id, credits: 150, balance: 140, claw_back: 140, already_spent: 10, return_by_hand: null });
    // the agent confirmed having seen nothing spent: the balance moved since, so they must look again
    const stale = await admin("refund", support.token, { reason: "customer asked", acknowledged_spent: 0 });
    expect(stale.status).toBe(409);
    expect((await s.db.order.findUniqueOrThrow({ where: { id: b.order_id } })).refundStartedAt).toBeNull();
    // two agents confirm at once: one refund, one 409
    const both = await Promise.all([0, 1].map(() => admin("refund", support.token, { reason: "customer asked", acknowledged_spent: 10 })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await s.db.sandboxSession.findFirstOrThrow({ where: { orderNo: b.order_no } })).status).toBe("refunded");
    expect((await api("/api/Personal/select_users_integral", b.token)).data.points).toBe(0);
    const taken = await s.db.ledgerEntry.findMany({ where: { userId: b.userId, reason: "order_refund" } });
    expect(taken.map((e) => e.delta)).toEqual([-140]);
    const audit = await s.db.auditLog.findMany({ where: { resource: "Order", resourceId: String(b.order_id) } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      staffId: support.staffId,
      action: "refund_order",
      after: { status: "refunded", points: 0, credits_taken_back: 140, already_spent: 10 },
    });
  });
});

describe("sandbox where others reach it", () => {
  // npm start sets no NODE_ENV: a deployment that forgets it must not give credits away (decision 350)
  it.each([
    { NODE_ENV: "production", PUBLIC_URL: "http://localhost:8080" },
    { NODE_ENV: "development", PUBLIC_URL: "https://reverie.example" },
  ])("is off unless enabled (%j): no checkout page and 'Payment function temporarily unavailable'", async (env) => {
    const t = await createTestApp(env);
    try {
      await seedProducts(t.db);
      const product = await t.db.product.findUniqueOrThrow({ where: { code: "credits_50" } });
      const token = (await t.http.post("/api/login/visitor").expect(200)).body.data.token;
      const res = await t.http
        .post("/api/order/createOrderAndPay")
        .set("token", token)
        .send({ product_id: product.id, provider: "sandbox", agree_terms: true });
      expect(res.body).toEqual({ code: 503, msg: "Payment function temporarily unavailable", data: null });
      expect(await t.db.order.count()).toBe(0);
      await t.http.get("/sandbox-pay/sbx_aaaaaaaaaaaaaaaaaaaaaaaa").expect(404);
    } finally {
      await t.close();
    }
  });

  it("can be enabled explicitly", async () => {
    const t = await createTestApp({ NODE_ENV: "production", PUBLIC_URL: "https://reverie.example", SANDBOX_PAY_ENABLED: "true" });
    try {
      await t.http.get("/sandbox-pay/sbx_aaaaaaaaaaaaaaaaaaaaaaaa").expect(404, /The access resource does not exist/);
      await seedProducts(t.db);
      const product = await t.db.product.findUniqueOrThrow({ where: { code: "credits_50" } });
      const token = (await t.http.post("/api/login/visitor").expect(200)).body.data.token;
      const res = await t.http
        .post("/api/order/createOrderAndPay")
        .set("token", token)
        .send({ product_id: product.id, provider: "sandbox", agree_terms: true })
        .expect(200);
      expect(res.body.data.pay_url).toMatch(/\/sandbox-pay\/sbx_/);
    } finally {
      await t.close();
    }
  });
});
