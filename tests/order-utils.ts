import { expect } from "vitest";
import type { TestApp } from "./db-utils.ts";

/** A pending sandbox order of the 150-credit pack (`packId`), created in the database as the checkout would. */
export function packOrder(t: Pick<TestApp, "db">, packId: number, userId: number, tag: string) {
  return t.db.order.create({
    data: {
      orderNo: `R-${tag}-${userId}`,
      userId,
      productId: packId,
      productName: "150 credits",
      amountMinor: 1299,
      finalPriceMinor: 1299,
      currency: "USD",
      credits: 150,
      provider: "sandbox",
      providerRef: `sbx_${tag}_${userId}`,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
}

/** That order paid by a verified provider fact, through the path every provider's payment takes; `payerRef` as a provider names the payer. */
export async function paidPackOrder(t: Pick<TestApp, "db" | "services">, packId: number, userId: number, tag: string, payerRef?: string) {
  const o = await packOrder(t, packId, userId, tag);
  await t.services.orders.applyUpdate("sandbox", {
    eventId: `evt_${tag}_${o.id}`,
    type: "payment.succeeded",
    outcome: "paid",
    providerRef: o.providerRef!,
    orderNo: o.orderNo,
    amountMinor: 1299,
    currency: "USD",
    payerRef,
    payload: {},
  });
  return o;
}

/**
 * A staff refund raced against the provider's refund notification, both sides asserted: the notification is always
 * acknowledged (a failure would make the provider send it again, and hide a defect behind the final state), and the
 * staff refund finishes or answers 409 because the notification got there first.
 */
export async function expectRefundRace(staffRefund: Promise<unknown>, notification: PromiseLike<unknown>): Promise<void> {
  const [staff, provider] = await Promise.allSettled([staffRefund, notification]);
  expect(provider, "the provider's refund notification").toMatchObject({ status: "fulfilled" });
  if (staff.status === "rejected") expect(staff.reason, "the staff refund").toMatchObject({ status: 409 });
}
