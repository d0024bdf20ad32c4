import type { Logger } from "pino";
import type { Tx } from "../../db/client.ts";
import type { Order } from "../../db/generated/client.ts";
import type { SubscriptionFacts } from "../orders/payment-update.ts";
import { lockByRef } from "./memberships.queries.ts";

/** A membership's state as its provider subscription's changes (cancelled, ended, running again). */
export function createMembershipState(deps: { log: Logger }) {
  const { log } = deps;

  return {
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
        await tx.membership.update({
          where: { id: membership.id },
          data: { status: "active", endedAt: null, cancelAtPeriodEnd: false, ...dated, ...periodEnd },
        });
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
  };
}
