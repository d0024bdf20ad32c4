import type { Logger } from "pino";
import type { Db, Tx } from "../../db/client.ts";
import { Prisma, type Membership, type Order } from "../../db/generated/client.ts";
import type { MembershipStatus } from "../../contract/memberships.ts";
import { HttpError } from "../../http/errors.ts";
import { modelOfRow } from "../../db/rows.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { SubscriptionFacts } from "../orders/payment-update.ts";

/** A `memberships` row from raw SQL as Prisma's model; rows from before migration 0183 may hold no reversed periods. */
function membershipFromRow(r: Record<string, unknown>): Membership {
  const m = modelOfRow<Membership>(r);
  return { ...m, reversedPeriods: m.reversedPeriods ?? [] };
}

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

  /** Locks and reads the membership of a provider subscription, one statement (it runs on the notification path). */
  async function lockByRef(tx: Tx, provider: string, ref: string): Promise<Membership | null> {
    const rows = await tx.$queryRaw<Record<string, unknown>[]>`SELECT * FROM memberships WHERE provider = ${provider} AND provider_ref = ${ref} FOR UPDATE`;
    return rows.length ? membershipFromRow(rows[0]) : null;
  }

  /**
   * When the period just paid ends, as SQL: the provider's date where it gives one (Stripe, PayPal), else the plan's
   * length counted from the later of now and `previousEnd` (Pagsmile says only which period was paid); NULL when the
   * product has no period.
   */
  function periodEnd(order: Order, sub: SubscriptionFacts, previousEnd: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`COALESCE(${sub.currentPeriodEnd ?? null}::timestamp(3),
      GREATEST(now(), ${previousEnd}) + make_interval(days => (SELECT interval_days FROM products WHERE id = ${order.productId})))`;
  }

  /**
   * The membership a paid plan order starts, once (the order is unique): a second start only takes the provider's
   * period end, where it says one. One statement, on the notification path.
   */
  async function started(tx: Tx, order: Order, provider: string, sub: SubscriptionFacts): Promise<Membership> {
    const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
      INSERT INTO memberships (user_id, order_id, provider, provider_ref, credits_per_period, current_period_end, updated_at)
      VALUES (${order.userId}, ${order.id}, ${provider}, ${sub.ref}, ${order.credits}, ${periodEnd(order, sub, Prisma.sql`NULL`)}, now())
      ON CONFLICT (order_id) DO UPDATE SET current_period_end = COALESCE(${sub.currentPeriodEnd ?? null}::timestamp(3), memberships.current_period_end), updated_at = now()
      RETURNING *`;
    return membershipFromRow(row);
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
      await tx.$queryRaw`
        UPDATE memberships SET periods_paid = periods_paid + 1,
          current_period_end = COALESCE(${periodEnd(order, sub, Prisma.sql`current_period_end`)}, current_period_end), updated_at = now()
        WHERE id = ${membership.id}`;
      return true;
    },

    /**
     * The provider says the subscription will stop at the period's end, or has stopped (cancelled, or renewals failed
     * for good), or runs again. Webhooks arrive in any order, so a dated change older than the last one applied is
     * stale and ignored (decision 225): a SUSPENDED delivered after the re-activation, an ACTIVATED after a newer
     * suspension. An ended membership runs again only when the provider re-activated its subscription after it ended
     * (PayPal, decision 219) — never after its plan order was refunded, and never on an undated event.
     */
    async stateChanged(tx: Tx, order: Order, provider: string, sub: SubscriptionFacts): Promise<void> {
      const membership = await lockByRef(tx, provider, sub.ref);
      if (!membership || !sub.state) return;
      // A membership ended before dates were kept (or by a refund) has only its end time to compare with.
      const lastChange = membership.stateChangedAt ?? (membership.status === "ended" ? membership.endedAt : null);
      if (sub.stateChangedAt && lastChange && sub.stateChangedAt < lastChange) {
        log.info({ provider, ref: sub.ref, membershipId: membership.id, state: sub.state }, "stale subscription state change ignored");
        return;
      }
      const dated = sub.stateChangedAt ? { stateChangedAt: sub.stateChangedAt } : {};
      const periodEnd = sub.currentPeriodEnd ? { currentPeriodEnd: sub.currentPeriodEnd } : {};
      if (membership.status === "ended") {
        const resumed = sub.state === "active" && order.status !== "refunded" && sub.stateChangedAt && lastChange && sub.stateChangedAt > lastChange;
        if (!resumed) return;
        log.info({ provider, ref: sub.ref, membershipId: membership.id }, "subscription re-activated; the membership runs again");
        await tx.membership.update({ where: { id: membership.id }, data: { status: "active", endedAt: null, cancelAtPeriodEnd: false, ...dated, ...periodEnd } });
        return;
      }
      const data =
        sub.state === "ended"
          ? { status: "ended", endedAt: new Date() }
          : sub.state === "cancel_at_period_end"
            ? { status: "cancelled", cancelAtPeriodEnd: true }
            : { status: "active", cancelAtPeriodEnd: false };
      await tx.membership.update({ where: { id: membership.id }, data: { ...data, ...dated, ...periodEnd } });
    },

    /**
     * The provider returned the money of one renewal (decision 219): that period's credits are taken back as far as
     * the balance holds, once per period (`reversed_periods` is the gate, as a balance of zero leaves no ledger entry
     * to be one), and the membership is one period shorter. Nothing for a period that was never granted. Answers what
     * was taken back and what had been spent, or null when nothing moved.
     */
    async periodReversed(tx: Tx, provider: string, ref: string, period: string, kind: "refund" | "chargeback"): Promise<{ takenBack: number; alreadySpent: number } | null> {
      const membership = await lockByRef(tx, provider, ref);
      if (!membership) return null;
      const grantKey = `membership:${membership.id}:period:${period}`;
      if (!(await credits.hasEntry(tx, grantKey))) return null;
      const shortened = await tx.$queryRaw<unknown[]>`
        UPDATE memberships SET reversed_periods = array_append(reversed_periods, ${period}), periods_paid = GREATEST(periods_paid - 1, 0),
          current_period_end = current_period_end - make_interval(days => COALESCE((SELECT interval_days FROM products p JOIN orders o ON o.product_id = p.id WHERE o.id = memberships.order_id), 0)),
          updated_at = now()
        WHERE id = ${membership.id} AND NOT (${period} = ANY (COALESCE(reversed_periods, '{}')))
        RETURNING id`;
      if (!shortened.length) return null;
      const takenBack = await credits.chargeUpTo({ userId: membership.userId, amount: membership.creditsPerPeriod, reason: kind === "chargeback" ? "chargeback" : "membership_refund", reference: `membership:${membership.id}`, idempotencyKey: `${grantKey}:reversed` }, tx);
      return { takenBack, alreadySpent: membership.creditsPerPeriod - takenBack };
    },

    /** The plan order that started a membership was refunded: the membership ends now (what it paid for went back). */
    async orderRefunded(tx: Tx, orderId: number): Promise<void> {
      await tx.$queryRaw`UPDATE memberships SET status = 'ended', ended_at = now(), cancel_at_period_end = false, updated_at = now() WHERE order_id = ${orderId} AND status <> 'ended'`;
    },

    /** The provider subscription a plan order started, if any (to stop its renewals once the order is refunded). */
    async subscriptionOf(orderId: number): Promise<{ provider: string; providerRef: string } | null> {
      return db.membership.findUnique({ where: { orderId }, select: { provider: true, providerRef: true } });
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
