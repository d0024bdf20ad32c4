import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, visitor, type TestApp } from "../../../../tests/db-utils.ts";
import { startFakeStripe, type FakeStripe } from "../../../../tests/fixtures/fake-stripe.ts";
import { startFakePagsmile, type FakePagsmile } from "../../../../tests/fixtures/fake-pagsmile.ts";
import { seedProducts } from "../products/products.seed.ts";

const SECRET_KEY = "sk_test_reverie_memberships";
const WEBHOOK_SECRET = "whsec_reverie_memberships";
let stripe: FakeStripe;
let pagsmile: FakePagsmile;
let t: TestApp;
let planId: number;
let packId: number;

beforeAll(async () => {
  stripe = await startFakeStripe({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  pagsmile = await startFakePagsmile({ appId: "1625829214531663", securityKey: "Pagsmile_sk_members" });
  t = await createTestApp({
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    PAGSMILE_APP_ID: "1625829214531663",
    PAGSMILE_SECURITY_KEY: "Pagsmile_sk_members",
    PAGSMILE_API_BASE: pagsmile.url,
  });
  await seedProducts(t.db);
  planId = (await t.db.product.findUniqueOrThrow({ where: { code: "plan_monthly" } })).id;
  packId = (await t.db.product.findUniqueOrThrow({ where: { code: "credits_150" } })).id;
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await pagsmile.close();
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
  return { ...user, orderId: res.body.data.order_id as number, subscriptionId: session.subscription! };
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
    await hook(stripe.notification(stripe.event("invoice.paid", { ...invoice, id: "in_late", lines: { object: "list", data: [{ id: "il_late", amount: 1999, period: { start: 1, end: 2 } }] } }))).expect(200);
    expect(await points(m.userId)).toBe(600);
    expect(await current(m.token)).toBeNull();
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
    const notify = (period: number) => t.http.post("/api/order/pagsmileNotify").set(pagsmile.notification(trade, { period }).headers).send(pagsmile.notification(trade, { period }).body);
    for (const period of [1, 2, 2, 3, 4]) await notify(period).expect(200);
    expect(await points(user.userId)).toBe(300 * 4);
    const view = await current(user.token);
    expect(view).toMatchObject({ provider: "pagsmile", periods_paid: 4, status: "active" });
    // Pagsmile gives no dates: four 30-day periods paid from now
    expect(new Date(view.next_renewal_at).getTime()).toBeGreaterThan(Date.now() + 119 * 86_400_000);
    await t.http.post("/api/membership/cancel").set("token", user.token).expect(200);
    expect(trade.recurring_status).toBe("CANCEL");
    expect(await current(user.token)).toMatchObject({ status: "cancelled" });
  });
});
