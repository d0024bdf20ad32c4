import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import type { Membership, Order } from "../../db/generated/client.ts";
import type { MembershipStatus } from "../../contract/memberships.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { SubscriptionFacts } from "../orders/payment-update.ts";

export const NO_MEMBERSHIP = "You have no membership to cancel";

/** What the member sees: the plan, when it renews next, and whether it will. */
export function membershipView(m: Membership & { order?: Order & { product?: { name: string } | null } }) {
  return {
    membership_id: m.id,
    status: m.status as MembershipStatus,
    provider: m.provider,
    product_name: m.order?.product?.name,
    credits_per_period: m.creditsPerPeriod,
    periods_paid: m.periodsPaid,
    next_renewal_at: m.status === "active" ? m.currentPeriodEnd : null,
    ends_at: m.status === "cancelled" ? m.currentPeriodEnd : m.endedAt,
  };
}

/**
 * Memberships: a plan whose first order paid the first period and whose provider subscription pays the next ones.
 * Every change comes from a verified provider fact, inside the orders service's transaction for that fact, so a
 * renewal's credits, its payment event and the membership's period count commit together.
 */
export function createMembershipsService(deps: { db: Db; credits: CreditsService; log: Logger }) {
  const { db, credits, log } = deps;

  async function lockByRef(tx: Tx, provider: string, ref: string): Promise<Membership | null> {
    const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM memberships WHERE provider = ${provider} AND provider_ref = ${ref} FOR UPDATE`;
    return rows.length ? tx.membership.findUnique({ where: { id: rows[0].id } }) : null;
  }

  /**
   * When the period just paid ends: the provider's date where it gives one (Stripe), else the plan's length counted
   * from the later of now and the previous end (Pagsmile says only which period was paid).
   */
  async function periodEnd(tx: Tx, order: Order, sub: SubscriptionFacts, previousEnd: Date | null): Promise<Date | undefined> {
    if (sub.currentPeriodEnd) return sub.currentPeriodEnd;
    const plan = await tx.product.findUnique({ where: { id: order.productId }, select: { intervalDays: true } });
    if (!plan?.intervalDays) return undefined;
    const from = Math.max(Date.now(), previousEnd?.getTime() ?? 0);
    return new Date(from + plan.intervalDays * 86_400_000);
  }

  /** The membership a paid plan order starts (once: the order is unique). */
  async function started(tx: Tx, order: Order, provider: string, sub: SubscriptionFacts): Promise<Membership> {
    const existing = await tx.membership.findUnique({ where: { orderId: order.id } });
    if (existing) return sub.currentPeriodEnd ? tx.membership.update({ where: { id: existing.id }, data: { currentPeriodEnd: sub.currentPeriodEnd } }) : existing;
    return tx.membership.create({
      data: { userId: order.userId, orderId: order.id, provider, providerRef: sub.ref, creditsPerPeriod: order.credits, currentPeriodEnd: await periodEnd(tx, order, sub, null) },
    });
  }

  return {
    started,

    /** A guest's memberships follow it into the account it logged in to (auth's guest merge). */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.membership.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

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
        { userId: membership.userId, amount: membership.creditsPerPeriod, reason: "membership_renewal", reference: `membership:${membership.id}`, idempotencyKey: `membership:${membership.id}:period:${sub.renewalPeriod}` },
        tx,
      );
      if (!grant.applied) return false;
      const end = await periodEnd(tx, order, sub, membership.currentPeriodEnd);
      await tx.membership.update({ where: { id: membership.id }, data: { periodsPaid: { increment: 1 }, ...(end ? { currentPeriodEnd: end } : {}) } });
      return true;
    },

    /** The provider says the subscription will stop at the period's end, or has stopped (cancelled, or renewals failed for good). */
    async stateChanged(tx: Tx, provider: string, sub: SubscriptionFacts): Promise<void> {
      const membership = await lockByRef(tx, provider, sub.ref);
      if (!membership || membership.status === "ended" || !sub.state) return;
      const data =
        sub.state === "ended"
          ? { status: "ended", endedAt: new Date() }
          : sub.state === "cancel_at_period_end"
            ? { status: "cancelled", cancelAtPeriodEnd: true }
            : { status: "active", cancelAtPeriodEnd: false };
      await tx.membership.update({ where: { id: membership.id }, data: { ...data, ...(sub.currentPeriodEnd ? { currentPeriodEnd: sub.currentPeriodEnd } : {}) } });
    },

    /** The member's running membership (active or cancelled but still paid for), newest first. */
    async current(userId: number) {
      const m = await db.membership.findFirst({ where: { userId, status: { in: ["active", "cancelled"] } }, orderBy: { id: "desc" }, include: { order: { include: { product: { select: { name: true } } } } } });
      return m ? membershipView(m) : null;
    },

    /** The membership the member may cancel now. */
    async cancellable(userId: number): Promise<Membership & { order: Order }> {
      const m = await db.membership.findFirst({ where: { userId, status: "active" }, orderBy: { id: "desc" }, include: { order: true } });
      if (!m) throw HttpError.notFound(NO_MEMBERSHIP);
      return m;
    },

    /** The provider accepted the cancellation: no more renewals, what was paid runs to the period's end. */
    async markCancelled(id: number): Promise<void> {
      await db.membership.updateMany({ where: { id, status: "active" }, data: { status: "cancelled", cancelAtPeriodEnd: true } });
    },
  };
}

export type MembershipsService = ReturnType<typeof createMembershipsService>;
