import { beforeAll, describe, expect, it } from "vitest";
import { sandboxServerForThisFile, type SandboxServer } from "../../../../../tests/sandbox-server.ts";
import { DAY_MS } from "./sandbox-gateway.ts";

// Issue 30 item 4: the sandbox sells the Monthly plan as a real subscription (docs/decisions/257).

const sandbox = sandboxServerForThisFile();
const api = sandbox.api;
let s: SandboxServer;
let planId: number;

beforeAll(async () => {
  s = sandbox.server();
  planId = (await s.db.product.findUniqueOrThrow({ where: { code: "plan_monthly" } })).id;
});

const post = (url: string) => fetch(url, { method: "POST", redirect: "manual" });
const points = async (token: string) => (await api("/api/Personal/select_users_integral", token)).data.points as number;
const current = async (token: string) => (await api("/api/membership/current", token)).data.membership;

/** A guest who bought the Monthly plan through the sandbox and paid it. */
async function member() {
  const token = (await api("/api/login/visitor", "", {})).data.token as string;
  const order = await api("/api/order/createOrderAndPay", token, { product_id: planId, provider: "sandbox", agree_terms: true });
  expect(order.code).toBe(200);
  expect(await (await fetch(order.data.pay_url)).text()).toContain("A plan: charged again every 30 days until cancelled.");
  expect((await post(`${order.data.pay_url}/pay`)).status).toBe(303);
  const sub = await s.db.sandboxSubscription.findFirstOrThrow({ where: { orderNo: order.data.order_no } });
  return { token, orderId: order.data.order_id as number, sub };
}

describe("a plan bought through the sandbox", () => {
  it("is a membership with its renewal date, seen by its member and in the console's memberships", async () => {
    const m = await member();
    expect(await points(m.token)).toBe(300);
    const plan = await current(m.token);
    expect(plan).toMatchObject({
      status: "active",
      provider: "sandbox",
      order_id: m.orderId,
      product_name: "Monthly plan",
      price_text: "$149.99",
      interval_days: 30,
      credits_per_period: 300,
      periods_paid: 1,
      can_cancel: true,
      can_resume: false,
      provider_page: `${s.url}/sandbox-pay/subscriptions/${m.sub.id}`,
    });
    const renews = new Date(plan.next_renewal_at).getTime();
    expect(Math.abs(renews - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
    expect(await s.db.membership.count({ where: { orderId: m.orderId, providerRef: m.sub.id } })).toBe(1);
  });

  it("renews through the signed webhook, once per period however often it is retried", async () => {
    const m = await member();
    const later = new Date(m.sub.currentPeriodEnd.getTime() + 1000);
    // two sweeps at once (two API instances) and the test page's button: one charge of period 2
    await Promise.all([s.services.sandboxSubscriptions.sweep(later), s.services.sandboxSubscriptions.sweep(later)]);
    expect(await points(m.token)).toBe(600);
    expect(await current(m.token)).toMatchObject({ periods_paid: 2 });
    // the provider delivering period 2 again, many times at once, grants nothing more
    const row = await s.services.sandboxSubscriptions.find(m.sub.id);
    const resent = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        s.services.sandboxGateway.deliver(row.session, "subscription.renewed", { row, period: 2 }, i % 2 ? `sbevt_retry_${m.sub.id}_${i}` : undefined),
      ),
    );
    expect(resent.every(Boolean)).toBe(true);
    expect(await points(m.token)).toBe(600);
    const events = await s.db.paymentEvent.findMany({ where: { orderId: m.orderId, type: "subscription.renewed" } });
    expect(events.length).toBeGreaterThanOrEqual(2);
    const membership = await s.db.membership.findUniqueOrThrow({ where: { orderId: m.orderId } });
    expect(await s.db.ledgerEntry.count({ where: { reason: "membership_renewal", reference: `membership:${membership.id}` } })).toBe(1);
  });

  it("the test page charges the next period now; a renewal the webhook missed is sent again by the sweep", async () => {
    const m = await member();
    const page = await fetch(`${s.url}/sandbox-pay/subscriptions/${m.sub.id}?lang=ru`);
    expect(await page.text()).toContain("Списать следующий период сейчас");
    const clicks = await Promise.all(Array.from({ length: 5 }, () => post(`${s.url}/sandbox-pay/subscriptions/${m.sub.id}/renew`)));
    expect(clicks.every((r) => r.status === 303)).toBe(true);
    expect(await points(m.token)).toBeGreaterThanOrEqual(600);
    const charged = (await s.db.sandboxSubscription.findUniqueOrThrow({ where: { id: m.sub.id } })).period;
    expect(await points(m.token)).toBe(300 * charged);
    // a period charged while Reverie did not hear of it: the next sweep delivers it
    await s.db.sandboxSubscription.update({ where: { id: m.sub.id }, data: { period: charged + 1, notifiedPeriod: charged } });
    await s.services.sandboxSubscriptions.sweep();
    expect(await points(m.token)).toBe(300 * (charged + 1));
    expect((await s.db.sandboxSubscription.findUniqueOrThrow({ where: { id: m.sub.id } })).notifiedPeriod).toBe(charged + 1);
  });

  it("cancel (twice at once) stops renewals, resume renews again, a lapsed cancelled plan ends", async () => {
    const m = await member();
    const cancels = await Promise.all(Array.from({ length: 4 }, () => api("/api/membership/cancel", m.token, {})));
    expect(cancels.filter((c) => c.code === 200).length).toBeGreaterThanOrEqual(1);
    expect(cancels.every((c) => c.code === 200 || c.code === 404)).toBe(true);
    expect(await current(m.token)).toMatchObject({ status: "cancelled", can_cancel: false, can_resume: true, next_renewal_at: null });
    expect((await s.db.sandboxSubscription.findUniqueOrThrow({ where: { id: m.sub.id } })).status).toBe("cancel_at_period_end");
    // a cancelled subscription is not charged when its period ends
    const resumed = await Promise.all(Array.from({ length: 3 }, () => api("/api/membership/resume", m.token, {})));
    expect(resumed.some((r) => r.code === 200 && r.data.membership.status === "active")).toBe(true);
    expect(await current(m.token)).toMatchObject({ status: "active", can_cancel: true, can_resume: false });
    expect((await api("/api/membership/resume", m.token, {})).code).toBe(404);
    expect((await api("/api/membership/cancel", m.token, {})).code).toBe(200);
    const later = new Date(m.sub.currentPeriodEnd.getTime() + 1000);
    await s.services.sandboxSubscriptions.sweep(later);
    expect(await points(m.token)).toBe(300);
    expect(await s.db.membership.findUniqueOrThrow({ where: { orderId: m.orderId } })).toMatchObject({ status: "ended" });
    expect(await current(m.token)).toBeNull();
    expect((await api("/api/membership/resume", m.token, {})).msg).toBe("You have no cancelled plan to resume");
  });

  it("a plan whose subscription ended at the sandbox's side cannot be resumed, in the member's words", async () => {
    const m = await member();
    expect((await api("/api/membership/cancel", m.token, {})).code).toBe(200);
    // the sandbox ended it, and Reverie has not heard of it yet
    await s.db.sandboxSubscription.update({ where: { id: m.sub.id }, data: { status: "ended" } });
    expect(await api("/api/membership/resume", m.token, {})).toMatchObject({ code: 409, msg: "This plan cannot be resumed; buy it again when it ends" });
    expect(await current(m.token)).toMatchObject({ status: "cancelled" });
  });

  it("another account can neither see nor change someone's plan; a guest without a plan gets clear refusals", async () => {
    const m = await member();
    const other = (await api("/api/login/visitor", "", {})).data.token as string;
    expect(await current(other)).toBeNull();
    expect(await api("/api/membership/cancel", other, {})).toMatchObject({ code: 404, msg: "You have no membership to cancel" });
    expect(await api("/api/membership/resume", other, {})).toMatchObject({ code: 404 });
    expect((await api("/api/membership/current", "")).code).toBe(401);
    expect(await current(m.token)).toMatchObject({ status: "active" });
  });
});
