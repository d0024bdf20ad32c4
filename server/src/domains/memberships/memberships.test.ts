import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, silentLog, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { createStripeProvider } from "../payments/providers/stripe.provider.ts";
import { startFakeStripe, type FakeStripe } from "../../../../tests/fixtures/fake-stripe.ts";
import { startFakePagsmile, type FakePagsmile } from "../../../../tests/fixtures/fake-pagsmile.ts";
import { startFakePaypal, type FakePaypal } from "../../../../tests/fixtures/fake-paypal.ts";
import { seedProducts } from "../products/products.seed.ts";
import { newStaff } from "../../../../tests/staff-utils.ts";

const SECRET_KEY = "sk_test_reverie_memberships";
const WEBHOOK_SECRET = "whsec_reverie_memberships";
let stripe: FakeStripe;
let pagsmile: FakePagsmile;
let paypal: FakePaypal;
const PAYPAL = { clientId: "members-client", clientSecret: "members-secret", webhookId: "WH-MEMBERS-1" };
let t: TestApp;
let planId: number;
let packId: number;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  pagsmile = await startFakePagsmile({ appId: "1625829214531663", securityKey: "Pagsmile_sk_members" });
  paypal = await startFakePaypal(PAYPAL);
  t = await createTestApp({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    PAGSMILE_APP_ID: "1625829214531663",
    PAGSMILE_SECURITY_KEY: "Pagsmile_sk_members",
    PAGSMILE_API_BASE: pagsmile.url,
    PAYPAL_CLIENT_ID: PAYPAL.clientId,
    PAYPAL_CLIENT_SECRET: PAYPAL.clientSecret,
    PAYPAL_WEBHOOK_ID: PAYPAL.webhookId,
    PAYPAL_API_BASE: paypal.url,
  });
  await seedProducts(t.db);
  planId = (await t.db.product.findUniqueOrThrow({ where: { code: "plan_monthly" } })).id;
  // the providers' amounts below are this plan at $19.99, whatever the seeded catalogue charges
  await t.db.product.update({ where: { id: planId }, data: { prices: [{ currency: "USD", priceMinor: 1999, salePriceMinor: null }] } });
  packId = (await t.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await pagsmile.close();
  await paypal.close();
});
afterEach(async () => {
  expect(await t.services.credits.findLedgerMismatches()).toEqual([]);
});

const hook = (n: { body: string; headers: Record<string, string> }) => t.http.post("/api/pay/webhook/stripe").set(n.headers).send(n.body);
const points = async (userId: number) => (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).points;
const current = async (token: string) => (await t.http.get("/api/membership/current").set("token", token).expect(200)).body.data.membership;

async function stripeMember() {
  const user = await visitor(t);
  const res = await t.http.post("/api/OrderStripe/createCheckoutSession").set("token", user.token).send({ product_id: planId, agree_terms: true }).expect(200);
  const session = stripe.complete(res.body.data.session_id);
  await hook(stripe.notification(stripe.event("checkout.session.completed", session))).expect(200);
  return { ...user, orderId: res.body.data.order_id as number, sessionId: session.id, subscriptionId: session.subscription! };
}

describe("memberships through Stripe subscriptions", () => {
  it("the plan opens a subscription checkout; the first period is the order's credits and the member sees the next renewal", async () => {
    const m = await stripeMember();
    const created = stripe.requests.find((r) => r.path === "/v1/checkout/sessions" && r.form.get("mode") === "subscription")!;
    expect(created.form.get("line_items[0][price_data][recurring][interval]")).toBe("day");
    expect(created.form.get("line_items[0][price_data][recurring][interval_count]")).toBe("30");
    expect(await points(m.userId)).toBe(300);
    const view = await current(m.token);
    expect(view).toMatchObject({ status: "active", provider: "stripe", product_name: "Monthly plan", credits_per_period: 300, periods_paid: 1 });
    // the plan keeps the name it was bought under, as its order does (decision 265), whatever staff rename later
    await t.db.product.update({ where: { id: planId }, data: { name: "Monthly plan (renamed)" } });
    try {
      expect(await current(m.token)).toMatchObject({ product_name: "Monthly plan", price_text: "$19.99" });
    } finally {
      await t.db.product.update({ where: { id: planId }, data: { name: "Monthly plan" } });
    }
  });

  it("three renewals grant three periods; a replayed renewal grants nothing; cancelling stops the fourth", async () => {
    const m = await stripeMember();
    for (let i = 0; i < 3; i++) {
      const invoice = stripe.renew(m.subscriptionId)!;
      const n = stripe.notification(stripe.event("invoice.paid", invoice));
      await hook(n).expect(200);
      // the same delivery again, and the same invoice in a fresh event (Stripe re-sends with a new event id)
      await hook(n).expect(200);
      await hook(stripe.notification(stripe.event("invoice.paid", invoice))).expect(200);
    }
    expect(await points(m.userId)).toBe(300 * 4);
    const view = await current(m.token);
    expect(view).toMatchObject({ status: "active", periods_paid: 4 });
    expect(new Date(view.next_renewal_at).getTime()).toBe(stripe.subscriptions.get(m.subscriptionId)!.items.data[0].current_period_end * 1000);

    const cancelled = await t.http.post("/api/membership/cancel").set("token", m.token).expect(200);
    expect(cancelled.body.data.membership).toMatchObject({ status: "cancelled", next_renewal_at: null });
    expect(stripe.subscriptions.get(m.subscriptionId)!.cancel_at_period_end).toBe(true);
    await hook(stripe.notification(stripe.event("customer.subscription.updated", stripe.subscriptions.get(m.subscriptionId)))).expect(200);
    expect(stripe.renew(m.subscriptionId)).toBeNull();
    await hook(stripe.notification(stripe.event("customer.subscription.deleted", stripe.endSubscription(m.subscriptionId)))).expect(200);
    expect(await points(m.userId)).toBe(300 * 4);
    expect(await current(m.token)).toBeNull();
    expect(await t.db.membership.findFirstOrThrow({ where: { userId: m.userId } })).toMatchObject({ status: "ended", periodsPaid: 4 });
    await t.http.post("/api/membership/cancel").set("token", m.token).expect(404);
  });

  it("renewals sent 20 at once credit their period once; a renewal after the end or for another amount grants nothing", async () => {
    const m = await stripeMember();
    const invoice = stripe.renew(m.subscriptionId)!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => hook(stripe.notification(stripe.event("invoice.paid", invoice)))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await points(m.userId)).toBe(600);
    const cheap = stripe.renew(m.subscriptionId)!;
    await hook(stripe.notification(stripe.event("invoice.paid", { ...cheap, amount_paid: 1 }))).expect(200);
    expect(await points(m.userId)).toBe(600);
    // failed renewals until Stripe gives up: the subscription is deleted and the membership ends
    await hook(stripe.notification(stripe.event("invoice.payment_failed", { ...stripe.renew(m.subscriptionId)!, status: "open", amount_paid: 0 }))).expect(200);
    await hook(stripe.notification(stripe.event("customer.subscription.deleted", stripe.endSubscription(m.subscriptionId)))).expect(200);
    await hook(
      stripe.notification(
        stripe.event("invoice.paid", {
          ...invoice,
          id: "in_late",
          lines: { object: "list", data: [{ id: "il_late", amount: 1999, period: { start: 1, end: 2 } }] },
        }),
      ),
    ).expect(200);
    expect(await points(m.userId)).toBe(600);
    expect(await current(m.token)).toBeNull();
  });

  it("a staff refund of a plan order refunds its first invoice's payment once, takes the credits back once, ends the membership and the subscription (decision 225)", async () => {
    const m = await stripeMember();
    const orderNo = (await t.db.order.findUniqueOrThrow({ where: { id: m.orderId } })).orderNo;
    const staffId = (await newStaff(t, ["support"])).staffId;
    const refunds = await Promise.allSettled(
      Array.from({ length: 20 }, () => t.services.payments.refundOrder({ orderId: m.orderId, staffId, reason: "asked by the member" })),
    );
    expect(refunds.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(refunds.flatMap((r) => (r.status === "rejected" ? [(r.reason as { status: number }).status] : []))).toEqual(Array(19).fill(409));
    // the session has no payment intent: the refund names the one its invoice's payment names, once, keyed by the order
    const intent = stripe.invoicePaymentIntent(m.sessionId);
    expect(stripe.requests.filter((r) => r.method === "GET" && r.path === "/v1/invoice_payments")).not.toHaveLength(0);
    const refundCalls = stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/refunds" && r.form.get("payment_intent") === intent);
    expect(refundCalls.map((r) => r.headers["idempotency-key"])).toEqual([`refund:${orderNo}`]);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    expect(await t.db.order.findUniqueOrThrow({ where: { id: m.orderId } })).toMatchObject({ status: "refunded" });
    expect(await points(m.userId)).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: m.userId, reason: "order_refund" } })).toBe(1);
    expect(await t.db.membership.findUniqueOrThrow({ where: { orderId: m.orderId } })).toMatchObject({ status: "ended" });
    expect(await current(m.token)).toBeNull();
    // cancelled at Stripe at once (DELETE), not at the period's end: no renewal is charged
    expect(stripe.requests.filter((r) => r.method === "DELETE" && r.path === `/v1/subscriptions/${m.subscriptionId}`)).toHaveLength(1);
    expect(stripe.subscriptions.get(m.subscriptionId)!.status).toBe("canceled");
    expect(stripe.renew(m.subscriptionId)).toBeNull();
    // the provider call retried (its first answer lost) is answered with the first refund, not a second one
    await createStripeProvider(t.config, silentLog).refund!(m.sessionId, orderNo);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    // a retry finds the order refunded; Stripe's notifications of the refund and the deletion move nothing
    await expect(t.services.payments.refundOrder({ orderId: m.orderId, staffId, reason: "again" })).rejects.toMatchObject({ status: 409 });
    await hook(stripe.notification(stripe.event("charge.refunded", stripe.refundedCharge(intent)))).expect(200);
    await hook(stripe.notification(stripe.event("customer.subscription.deleted", stripe.endSubscription(m.subscriptionId)))).expect(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    expect(await points(m.userId)).toBe(0);
    expect(await t.db.ledgerEntry.count({ where: { userId: m.userId, reason: "order_refund" } })).toBe(1);
    expect(await t.db.membership.findUniqueOrThrow({ where: { orderId: m.orderId } })).toMatchObject({ status: "ended" });
  });

  it("a forged renewal is refused; another user cannot cancel someone's membership", async () => {
    const m = await stripeMember();
    const invoice = stripe.renew(m.subscriptionId)!;
    const n = stripe.notification(stripe.event("invoice.paid", invoice), { secret: "whsec_other" });
    await hook(n).expect(400);
    expect(await points(m.userId)).toBe(300);
    const other = await visitor(t);
    await t.http.post("/api/membership/cancel").set("token", other.token).expect(404);
    expect(await current(m.token)).toMatchObject({ status: "active" });
  });
});

describe("memberships through Pagsmile recurring", () => {
  it("period 1 pays the order, later periods renew once each, cancelling goes to /trade/recurring/cancel; packs cannot recur", async () => {
    const user = await visitor(t);
    const pack = await t.http.post("/api/order/createPagsmileRecurringPay").set("token", user.token).send({ product_id: packId, agree_terms: true });
    expect(pack.body).toMatchObject({ code: 400, msg: "This payment method is for the monthly plan only" });
    expect(await t.db.order.count({ where: { userId: user.userId } })).toBe(0);

    const res = await t.http.post("/api/order/createPagsmileRecurringPay").set("token", user.token).send({ product_id: planId, agree_terms: true }).expect(200);
    const trade = pagsmile.byOrderNo(res.body.data.order_no);
    expect(trade).toMatchObject({ kind: "recurring", interval: "30D", order_amount: "19.99" });
    pagsmile.settle(trade.trade_no, "SUCCESS");
    const notify = (period: number) =>
      t.http.post("/api/order/pagsmileNotify").set(pagsmile.notification(trade, { period }).headers).send(pagsmile.notification(trade, { period }).body);
    for (const period of [1, 2, 2, 3, 4]) await notify(period).expect(200);
    expect(await points(user.userId)).toBe(300 * 4);
    const view = await current(user.token);
    expect(view).toMatchObject({ provider: "pagsmile", periods_paid: 4, status: "active" });
    // Pagsmile gives no dates: four 30-day periods paid from now
    expect(new Date(view.next_renewal_at).getTime()).toBeGreaterThan(Date.now() + 119 * 86_400_000);
    // a later period refunded in Pagsmile's dashboard is a renewal's money, not the order's: nothing is taken back
    pagsmile.settle(trade.trade_no, "REFUNDED");
    const refund = { out_request_no: "0000000000000004", refund_amount: "19.99" };
    await t.http
      .post("/api/order/pagsmileNotify")
      .set(pagsmile.notification(trade, { period: 4, refund }).headers)
      .send(pagsmile.notification(trade, { period: 4, refund }).body)
      .expect(200);
    expect(await t.db.order.findUniqueOrThrow({ where: { id: res.body.data.order_id } })).toMatchObject({ status: "paid" });
    expect(await points(user.userId)).toBe(300 * 4);
    pagsmile.settle(trade.trade_no, "SUCCESS");
    await t.http.post("/api/membership/cancel").set("token", user.token).expect(200);
    expect(trade.recurring_status).toBe("CANCEL");
    expect(await current(user.token)).toMatchObject({ status: "cancelled" });
  });
});

describe("memberships through PayPal subscriptions (decision 209)", () => {
  const ppHook = (n: { body: string; headers: Record<string, string> }) => t.http.post("/api/pay/webhook/paypal").set(n.headers).send(n.body);
  const renewals = (userId: number) => t.db.ledgerEntry.count({ where: { userId, reason: "membership_renewal" } });

  async function subscribe() {
    const user = await visitor(t);
    const res = await t.http.post("/api/order/createPaypalPay").set("token", user.token).send({ product_id: planId, agree_terms: "1" }).expect(200);
    const data = res.body.data as { order_id: number; order_no: string; pay_url: string; session_id: string };
    return { ...user, ...data, subscriptionId: data.session_id };
  }

  async function paypalMember() {
    const m = await subscribe();
    const { subscription, sale } = paypal.approveSubscription(m.subscriptionId);
    await ppHook(paypal.notification("BILLING.SUBSCRIPTION.ACTIVATED", subscription)).expect(200);
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    return { ...m, firstSale: sale };
  }

  it("the plan is a PayPal subscription on a DAY/30 billing plan; the first sale pays the order and starts the membership", async () => {
    const m = await subscribe();
    const sub = paypal.subscriptions.get(m.subscriptionId)!;
    expect(m.pay_url).toBe(sub.links.find((l) => l.rel === "approve")!.href);
    expect(sub).toMatchObject({ status: "APPROVAL_PENDING", custom_id: m.order_no, return_url: `${t.config.publicUrl}/paypalCallback?order_id=${m.order_id}` });
    expect(paypal.plans.get(sub.plan_id)).toMatchObject({
      billing_cycles: [
        {
          frequency: { interval_unit: "DAY", interval_count: 30 },
          tenure_type: "REGULAR",
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value: "19.99", currency_code: "USD" } },
        },
      ],
      payment_preferences: { payment_failure_threshold: 3 },
    });
    expect(await t.db.order.findUniqueOrThrow({ where: { id: m.order_id } })).toMatchObject({ status: "pending", providerRef: m.subscriptionId });
    const { subscription, sale } = paypal.approveSubscription(m.subscriptionId);
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    // the same first sale again, and ACTIVATED after it (which makes Reverie look the subscription up): nothing more
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    await ppHook(paypal.notification("BILLING.SUBSCRIPTION.ACTIVATED", subscription)).expect(200);
    expect(await t.db.order.findUniqueOrThrow({ where: { id: m.order_id } })).toMatchObject({ status: "paid", providerPaymentRef: sale.id });
    expect(await points(m.userId)).toBe(300);
    const view = await current(m.token);
    expect(view).toMatchObject({ status: "active", provider: "paypal", credits_per_period: 300, periods_paid: 1 });
    expect(view.next_renewal_at).toBe(subscription.billing_info.next_billing_time);
    // a second member buys the same plan: PayPal's billing plan is reused
    await subscribe();
    expect(paypal.plans.size).toBe(1);
  });

  it("three renewals grant three periods; a replayed renewal grants nothing; cancelling stops the fourth", async () => {
    const m = await paypalMember();
    let sale = m.firstSale;
    for (let i = 0; i < 3; i++) {
      sale = paypal.renewSubscription(m.subscriptionId)!;
      const n = paypal.notification("PAYMENT.SALE.COMPLETED", sale);
      await ppHook(n).expect(200);
      await ppHook(n).expect(200);
      // PayPal re-sends the same sale under a new event id
      await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    }
    expect(await points(m.userId)).toBe(300 * 4);
    expect(await renewals(m.userId)).toBe(3);
    expect(await current(m.token)).toMatchObject({ status: "active", periods_paid: 4 });

    const cancelled = await t.http.post("/api/membership/cancel").set("token", m.token).expect(200);
    expect(cancelled.body.data.membership).toMatchObject({ status: "cancelled", next_renewal_at: null });
    expect(paypal.subscriptions.get(m.subscriptionId)!.status).toBe("CANCELLED");
    expect(paypal.requests.filter((r) => r.path === `/v1/billing/subscriptions/${m.subscriptionId}/cancel`)).toHaveLength(1);
    await ppHook(paypal.notification("BILLING.SUBSCRIPTION.CANCELLED", paypal.subscriptions.get(m.subscriptionId))).expect(200);
    expect(paypal.renewSubscription(m.subscriptionId)).toBeNull();
    // a stale copy of the third renewal's sale cannot buy a fourth period either
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    expect(await points(m.userId)).toBe(300 * 4);
    expect(await current(m.token)).toMatchObject({ status: "cancelled", periods_paid: 4 });
    await t.http.post("/api/membership/cancel").set("token", m.token).expect(404);
  });

  it("a renewal sent 20 times at once credits its period once; a renewal for another amount grants nothing", async () => {
    const m = await paypalMember();
    const sale = paypal.renewSubscription(m.subscriptionId)!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await points(m.userId)).toBe(600);
    const cheap = paypal.renewSubscription(m.subscriptionId)!;
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", { ...cheap, amount: { ...cheap.amount, total: "0.99" } })).expect(200);
    expect(await points(m.userId)).toBe(600);
    expect(await current(m.token)).toMatchObject({ periods_paid: 2 });
  });

  it("failed renewals change nothing while PayPal retries; a failed-then-expired subscription ends the membership, and so does a suspension", async () => {
    const m = await paypalMember();
    for (let i = 0; i < 2; i++) await ppHook(paypal.notification("BILLING.SUBSCRIPTION.PAYMENT.FAILED", paypal.failPayment(m.subscriptionId))).expect(200);
    expect(await current(m.token)).toMatchObject({ status: "active" });
    await ppHook(paypal.notification("BILLING.SUBSCRIPTION.EXPIRED", paypal.expireSubscription(m.subscriptionId))).expect(200);
    expect(await current(m.token)).toBeNull();
    expect(await t.db.membership.findFirstOrThrow({ where: { userId: m.userId } })).toMatchObject({ status: "ended", periodsPaid: 1 });
    // a late charge after the end credits nothing
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", { ...m.firstSale, id: "LATESALE000000001" })).expect(200);
    expect(await points(m.userId)).toBe(300);

    const s = await paypalMember();
    for (let i = 0; i < 3; i++) await ppHook(paypal.notification("BILLING.SUBSCRIPTION.PAYMENT.FAILED", paypal.failPayment(s.subscriptionId))).expect(200);
    expect(paypal.subscriptions.get(s.subscriptionId)!.status).toBe("SUSPENDED");
    await ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", paypal.subscriptions.get(s.subscriptionId))).expect(200);
    expect(await current(s.token)).toBeNull();
    expect(paypal.renewSubscription(s.subscriptionId)).toBeNull();
  });

  describe("refunds and re-activation (decision 219)", () => {
    const membershipOf = (orderId: number) => t.db.membership.findUniqueOrThrow({ where: { orderId } });
    const taken = (userId: number, reason: string) => t.db.ledgerEntry.count({ where: { userId, reason } });

    it("a staff refund of a plan order refunds the sale that paid it, takes the credits back once, ends the membership and stops the subscription", async () => {
      const m = await paypalMember();
      const staffId = (await newStaff(t, ["support"])).staffId;
      const refunds = await Promise.allSettled(
        Array.from({ length: 20 }, () => t.services.payments.refundOrder({ orderId: m.order_id, staffId, reason: "asked by the member" })),
      );
      expect(refunds.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(paypal.requests.filter((r) => r.method === "POST" && r.path === `/v1/payments/sale/${m.firstSale.id}/refund`)).toHaveLength(1);
      expect(paypal.sales.get(m.firstSale.id)!.state).toBe("refunded");
      expect(await t.db.order.findUniqueOrThrow({ where: { id: m.order_id } })).toMatchObject({ status: "refunded" });
      expect(await points(m.userId)).toBe(0);
      expect(await taken(m.userId, "order_refund")).toBe(1);
      expect(await membershipOf(m.order_id)).toMatchObject({ status: "ended" });
      expect(await current(m.token)).toBeNull();
      expect(paypal.subscriptions.get(m.subscriptionId)!.status).toBe("CANCELLED");
      // PayPal then tells of that refund and of the cancellation: nothing more moves, the membership stays ended
      const refundOfSale = { id: "REFUNDOFSALE00001", state: "completed", amount: { total: "19.99", currency: "USD" }, sale_id: m.firstSale.id };
      await ppHook(paypal.notification("PAYMENT.SALE.REFUNDED", refundOfSale)).expect(200);
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.CANCELLED", paypal.subscriptions.get(m.subscriptionId))).expect(200);
      expect(await taken(m.userId, "order_refund")).toBe(1);
      expect(await membershipOf(m.order_id)).toMatchObject({ status: "ended" });
    });

    it("a renewal's sale refunded in PayPal's dashboard takes that period back once; the first sale reversed refunds the order and ends the membership", async () => {
      const m = await paypalMember();
      const renewal = paypal.renewSubscription(m.subscriptionId)!;
      await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", renewal)).expect(200);
      expect(await points(m.userId)).toBe(600);
      const refund = paypal.refundSaleInDashboard(renewal.id);
      // sent 20 times at once under new event ids, then one event replayed 100 times
      const answers = await Promise.all(Array.from({ length: 20 }, () => ppHook(paypal.notification("PAYMENT.SALE.REFUNDED", refund))));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const n = paypal.notification("PAYMENT.SALE.REFUNDED", refund);
      for (let i = 0; i < 100; i++) await ppHook(n).expect(200);
      expect(await points(m.userId)).toBe(300);
      expect(await taken(m.userId, "membership_refund")).toBe(1);
      expect(await membershipOf(m.order_id)).toMatchObject({ status: "active", periodsPaid: 1, reversedPeriods: [renewal.id] });
      // the same sale reversed afterwards: its period is already back
      await ppHook(
        paypal.notification("PAYMENT.SALE.REVERSED", {
          ...refund,
          id: "REVERSAL000000001",
          amount: { total: "-19.99", currency: "USD" },
          reason_code: "CHARGEBACK",
        }),
      ).expect(200);
      expect(await points(m.userId)).toBe(300);
      // a renewal never credited (another amount) refunded: nothing to take back
      const cheap = paypal.renewSubscription(m.subscriptionId)!;
      await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", { ...cheap, amount: { ...cheap.amount, total: "0.99" } })).expect(200);
      await ppHook(paypal.notification("PAYMENT.SALE.REFUNDED", paypal.refundSaleInDashboard(cheap.id))).expect(200);
      expect(await points(m.userId)).toBe(300);

      await ppHook(paypal.notification("PAYMENT.SALE.REVERSED", paypal.reverseSale(m.firstSale.id))).expect(200);
      expect(await t.db.order.findUniqueOrThrow({ where: { id: m.order_id } })).toMatchObject({ status: "refunded" });
      expect(await points(m.userId)).toBe(0);
      expect(await taken(m.userId, "chargeback")).toBe(1);
      expect(await membershipOf(m.order_id)).toMatchObject({ status: "ended" });
      expect(paypal.subscriptions.get(m.subscriptionId)!.status).toBe("CANCELLED");
    });

    for (const event of ["BILLING.SUBSCRIPTION.RE-ACTIVATED", "BILLING.SUBSCRIPTION.ACTIVATED"]) {
      it(`a suspended subscription re-activated by the merchant (${event}) resumes the membership; a stale activation does not`, async () => {
        const m = await paypalMember();
        const staleActivation = structuredClone(paypal.subscriptions.get(m.subscriptionId)!);
        for (let i = 0; i < 3; i++) await ppHook(paypal.notification("BILLING.SUBSCRIPTION.PAYMENT.FAILED", paypal.failPayment(m.subscriptionId))).expect(200);
        await ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", paypal.subscriptions.get(m.subscriptionId))).expect(200);
        expect(await current(m.token)).toBeNull();
        // the first activation delivered again late (a new event id) began before the suspension: it resumes nothing
        await ppHook(paypal.notification("BILLING.SUBSCRIPTION.ACTIVATED", staleActivation)).expect(200);
        expect(await current(m.token)).toBeNull();
        await new Promise((r) => setTimeout(r, 5));
        const n = paypal.notification(event, paypal.reactivateSubscription(m.subscriptionId));
        await Promise.all(Array.from({ length: 20 }, () => ppHook(n)));
        expect(await current(m.token)).toMatchObject({ status: "active", periods_paid: 1 });
        await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", paypal.renewSubscription(m.subscriptionId))).expect(200);
        expect(await points(m.userId)).toBe(600);
        expect(await current(m.token)).toMatchObject({ status: "active", periods_paid: 2 });
      });
    }
  });

  describe("state changes delivered out of order (decision 225)", () => {
    const tick = () => new Promise((r) => setTimeout(r, 5));
    const snapshot = (id: string) => structuredClone(paypal.subscriptions.get(id)!);
    /** Three failed charges suspend the subscription, then the merchant re-activates it: both resources as sent. */
    async function suspendedThenReactivated(id: string) {
      for (let i = 0; i < 3; i++) paypal.failPayment(id);
      const suspended = snapshot(id);
      await tick();
      const reactivated = structuredClone(paypal.reactivateSubscription(id));
      return { suspended, reactivated };
    }

    it("a SUSPENDED delivered after the re-activation does not end the membership, in either order of delivery", async () => {
      // re-activation first, the suspension late
      const a = await paypalMember();
      const sa = await suspendedThenReactivated(a.subscriptionId);
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.RE-ACTIVATED", sa.reactivated)).expect(200);
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", sa.suspended)).expect(200);
      expect(await current(a.token)).toMatchObject({ status: "active" });
      await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", paypal.renewSubscription(a.subscriptionId))).expect(200);
      expect(await current(a.token)).toMatchObject({ status: "active", periods_paid: 2 });

      // in order, the suspension processed only after PayPal had re-activated; then the suspension re-sent 20 times
      const b = await paypalMember();
      const sb = await suspendedThenReactivated(b.subscriptionId);
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", sb.suspended)).expect(200);
      expect(await current(b.token)).toBeNull();
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.RE-ACTIVATED", sb.reactivated)).expect(200);
      expect(await current(b.token)).toMatchObject({ status: "active" });
      await Promise.all(Array.from({ length: 20 }, () => ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", sb.suspended))));
      expect(await current(b.token)).toMatchObject({ status: "active" });
    });

    it("a late ACTIVATED after a newer SUSPENDED does not resume the membership, in either order of delivery", async () => {
      for (const lateActivation of [true, false]) {
        const m = await paypalMember();
        const { reactivated } = await suspendedThenReactivated(m.subscriptionId);
        await tick();
        for (let i = 0; i < 3; i++) paypal.failPayment(m.subscriptionId);
        const suspendedAgain = snapshot(m.subscriptionId);
        const events = [
          paypal.notification("BILLING.SUBSCRIPTION.ACTIVATED", reactivated),
          paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", suspendedAgain),
        ];
        for (const n of lateActivation ? events.reverse() : events) await ppHook(n).expect(200);
        expect(await current(m.token)).toBeNull();
        expect(await t.db.membership.findUniqueOrThrow({ where: { orderId: m.order_id } })).toMatchObject({
          status: "ended",
          stateChangedAt: new Date(suspendedAgain.status_update_time!),
        });
      }
    });

    it("without the resource's status_update_time the event's create_time dates the change", async () => {
      const m = await paypalMember();
      const { suspended, reactivated } = await suspendedThenReactivated(m.subscriptionId);
      const undated = (s: typeof suspended) => ({ ...s, status_update_time: undefined });
      await ppHook(
        paypal.notification("BILLING.SUBSCRIPTION.RE-ACTIVATED", undated(reactivated), { createTime: new Date(reactivated.status_update_time!) }),
      ).expect(200);
      await ppHook(paypal.notification("BILLING.SUBSCRIPTION.SUSPENDED", undated(suspended), { createTime: new Date(suspended.status_update_time!) })).expect(
        200,
      );
      expect(await current(m.token)).toMatchObject({ status: "active" });
    });
  });

  it("with every webhook lost, the polling browser finds the subscription active and the order paid once; forged events are refused", async () => {
    const m = await subscribe();
    const q = () => t.http.post("/api/order/queryPayment").set("token", m.token).send({ order_id: m.order_id }).expect(200);
    expect((await q()).body.data).toMatchObject({ order_status: "pending", keep_polling: true });
    const { sale } = paypal.approveSubscription(m.subscriptionId);
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale, { webhookId: "WH-OTHER" })).expect(400);
    // the browser comes back from PayPal: capturing a subscription only asks how it stands
    await t.http.post("/api/order/capturePaypalOrder").set("token", m.token).send({ session_id: m.subscriptionId }).expect(200);
    const polls = await Promise.all(Array.from({ length: 10 }, () => q()));
    expect(polls.every((p) => p.body.data.order_status === "paid")).toBe(true);
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", sale)).expect(200);
    expect(await points(m.userId)).toBe(300);
    expect(await current(m.token)).toMatchObject({ status: "active", periods_paid: 1 });
    // the next renewal is still a renewal: the late first sale became the order's own payment
    await ppHook(paypal.notification("PAYMENT.SALE.COMPLETED", paypal.renewSubscription(m.subscriptionId))).expect(200);
    expect(await points(m.userId)).toBe(600);
    const other = await visitor(t);
    await t.http.post("/api/order/queryPayment").set("token", other.token).send({ order_id: m.order_id }).expect(404);
  });
});
