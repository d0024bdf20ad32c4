import type { Db, Tx } from "../../db/client.ts";
import type { Membership, Order } from "../../db/generated/client.ts";
import type { MembershipStatus } from "../../contract/memberships.ts";
import { HttpError } from "../../http/errors.ts";
import { formatMinor } from "../products/money.ts";

export const NO_MEMBERSHIP = "You have no membership to cancel";
export const NOT_RESUMABLE = "You have no cancelled plan to resume";

/** What the member sees: the plan, what it costs, when it renews next, and whether it will. */
export function membershipView(m: Membership & { order?: Order & { product?: { intervalDays: number | null } | null } }) {
  return {
    membership_id: m.id,
    status: m.status as MembershipStatus,
    provider: m.provider,
    order_id: m.orderId,
    // the name it was bought under, as its order keeps it (decision 265)
    product_name: m.order?.productName,
    price_text: m.order ? formatMinor(m.order.finalPriceMinor, m.order.currency) : undefined,
    interval_days: m.order?.product?.intervalDays ?? undefined,
    credits_per_period: m.creditsPerPeriod,
    periods_paid: m.periodsPaid,
    next_renewal_at: m.status === "active" ? m.currentPeriodEnd : null,
    ends_at: m.status === "cancelled" ? m.currentPeriodEnd : m.endedAt,
  };
}

/** The member's side: their membership as they see it and cancel it, and whose it is. */
export function createMembershipMember(db: Db) {
  return {
    /** A guest's memberships follow it into the account it logged in to (auth's guest merge). */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.membership.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** The provider subscription a plan order started, if any (to stop its renewals once the order is refunded). */
    async subscriptionOf(orderId: number): Promise<{ provider: string; providerRef: string } | null> {
      return db.membership.findUnique({ where: { orderId }, select: { provider: true, providerRef: true } });
    },

    /** The member's running membership (active or cancelled but still paid for), newest first, with its provider's reference. */
    async current(userId: number) {
      const m = await db.membership.findFirst({
        where: { userId, status: { in: ["active", "cancelled"] } },
        orderBy: { id: "desc" },
        include: { order: { include: { product: { select: { intervalDays: true } } } } },
      });
      return m ? { view: membershipView(m), providerRef: m.providerRef } : null;
    },

    /** The membership the member may cancel now. */
    async cancellable(userId: number): Promise<Membership & { order: Order }> {
      const m = await db.membership.findFirst({ where: { userId, status: "active" }, orderBy: { id: "desc" }, include: { order: true } });
      if (!m) throw HttpError.notFound(NO_MEMBERSHIP);
      return m;
    },

    /** The cancelled membership the member may renew again: its paid period has not run out. */
    async resumable(userId: number): Promise<Membership & { order: Order }> {
      const m = await db.membership.findFirst({
        where: { userId, status: "cancelled", OR: [{ currentPeriodEnd: null }, { currentPeriodEnd: { gt: new Date() } }] },
        orderBy: { id: "desc" },
        include: { order: true },
      });
      if (!m) throw HttpError.notFound(NOT_RESUMABLE);
      return m;
    },

    /** The provider renews the subscription again. */
    async markResumed(id: number): Promise<void> {
      await db.membership.updateMany({ where: { id, status: "cancelled" }, data: { status: "active", cancelAtPeriodEnd: false } });
    },

    /** The provider accepted the cancellation: no more renewals, what was paid runs to the period's end. */
    async markCancelled(id: number): Promise<void> {
      await db.membership.updateMany({ where: { id, status: "active" }, data: { status: "cancelled", cancelAtPeriodEnd: true } });
    },
  };
}
