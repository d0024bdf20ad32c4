import type { Logger } from "pino";
import type { Tx } from "../../db/client.ts";
import type { Membership, Order } from "../../db/generated/client.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { SubscriptionFacts } from "../orders/payment-update.ts";
import { endMembershipOfOrder, lockByRef, membershipOfRow, renewMembership, shortenMembership, startMembership } from "./memberships.queries.ts";

/**
 * The periods a membership is paid for, inside the orders service's transaction for the provider fact that says so:
 * the first (its plan order paid), each renewal, one returned, and the end when its plan order was refunded.
 */
export function createMembershipPeriods(deps: { credits: CreditsService; log: Logger }) {
  const { credits, log } = deps;

  /**
   * The membership a paid plan order starts, once (the order is unique): a second start only takes the provider's
   * period end, where it says one. One statement, on the notification path.
   */
  async function started(tx: Tx, order: Order, provider: string, sub: SubscriptionFacts): Promise<Membership> {
    const [row] = await startMembership.rows(tx, {
      userId: order.userId,
      orderId: order.id,
      provider,
      ref: sub.ref,
      credits: order.credits,
      productId: order.productId,
      currentPeriodEnd: sub.currentPeriodEnd ?? null,
    });
    return membershipOfRow(row);
  }

  return {
    started,

    /**
     * A paid renewal: the period's credits, once per period (ledger key membership:<id>:period:<period>). Nothing is
     * granted for an ended membership (the provider should not charge one; the event stays stored for staff).
     */
    async renewed(tx: Tx, order: Order, provider: string, sub: SubscriptionFacts & { renewalPeriod: string }): Promise<boolean> {
      const membership = (await lockByRef(tx, provider, sub.ref)) ?? (order.status === "paid" ? await started(tx, order, provider, sub) : null);
      if (!membership || membership.status === "ended") {
        log.error({ provider, ref: sub.ref, orderNo: order.orderNo }, "renewal for a membership that is not running; not credited");
        return false;
      }
      const grant = await credits.grant(
        {
          userId: membership.userId,
          amount: membership.creditsPerPeriod,
          reason: "membership_renewal",
          reference: `membership:${membership.id}`,
          idempotencyKey: `membership:${membership.id}:period:${sub.renewalPeriod}`,
        },
        tx,
      );
      if (!grant.applied) return false;
      await renewMembership.rows(tx, { id: membership.id, productId: order.productId, currentPeriodEnd: sub.currentPeriodEnd ?? null });
      return true;
    },

    /**
     * The provider returned the money of one renewal (decision 219): that period's credits are taken back as far as
     * the balance holds, once per period (`reversed_periods` is the gate, as a balance of zero leaves no ledger entry
     * to be one), and the membership is one period shorter. Nothing for a period that was never granted. Answers what
     * was taken back and what had been spent, or null when nothing moved.
     */
    async periodReversed(
      tx: Tx,
      provider: string,
      ref: string,
      period: string,
      kind: "refund" | "chargeback",
    ): Promise<{ takenBack: number; alreadySpent: number } | null> {
      const membership = await lockByRef(tx, provider, ref);
      if (!membership) return null;
      const grantKey = `membership:${membership.id}:period:${period}`;
      if (!(await credits.hasEntry(tx, grantKey))) return null;
      const shortened = await shortenMembership.rows(tx, { id: membership.id, period });
      if (!shortened.length) return null;
      const takenBack = await credits.chargeUpTo(
        {
          userId: membership.userId,
          amount: membership.creditsPerPeriod,
          reason: kind === "chargeback" ? "chargeback" : "membership_refund",
          reference: `membership:${membership.id}`,
          idempotencyKey: `${grantKey}:reversed`,
        },
        tx,
      );
      return { takenBack, alreadySpent: membership.creditsPerPeriod - takenBack };
    },

    /** The plan order that started a membership was refunded: the membership ends now (what it paid for went back). */
    async orderRefunded(tx: Tx, orderId: number): Promise<void> {
      await endMembershipOfOrder.rows(tx, { orderId });
    },
  };
}
