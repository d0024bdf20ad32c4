import type { Logger } from "pino";
import type { Order } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { membershipView, type MembershipsService } from "../memberships/memberships.service.ts";
import { providerNamed, type ProviderRegistry } from "./payments.providers.ts";
import { ProviderUnavailable, SubscriptionNotResumable } from "./providers/provider.ts";

/** The member's word when their provider has no way to renew a cancelled subscription again (buy the plan anew). */
export const NOT_RESUMABLE_HERE = "This plan cannot be resumed; buy it again when it ends";

/**
 * A change the member asked for, made at the provider, refused in the member's words: one it cannot reach now is
 * 'Payment failed, please try again later', a subscription it ended cannot be resumed.
 */
async function askProvider(change: () => Promise<void>): Promise<void> {
  try {
    await change();
  } catch (err) {
    if (err instanceof ProviderUnavailable) throw new HttpError(502, MSG.paymentFailed);
    if (err instanceof SubscriptionNotResumable) throw new HttpError(409, NOT_RESUMABLE_HERE);
    throw err;
  }
}

/** A membership's provider subscription stopped: by the member, or because its plan order was refunded. */
export function createSubscriptionStops(deps: { log: Logger; memberships: MembershipsService; providers: ProviderRegistry }) {
  const { log, memberships, providers } = deps;

  return {
    /**
     * A refunded plan order ended its membership (decision 219); the provider must not charge its subscription again,
     * or a renewal would be charged for a membership that no longer runs. A failure is logged: the membership is ended
     * either way, and support can cancel in the provider's dashboard.
     */
    async stopRenewals(order: Order): Promise<void> {
      const sub = await memberships.subscriptionOf(order.id);
      const provider = sub ? providerNamed(providers, sub.provider) : undefined;
      if (!sub || !provider?.cancelSubscription) return;
      try {
        await provider.cancelSubscription(sub.providerRef, order.orderNo, { now: true });
      } catch (err) {
        log.error(
          { err, orderNo: order.orderNo, subscription: sub.providerRef },
          "refunded plan order: cancelling its subscription failed; cancel it in the provider's dashboard",
        );
      }
    },

    /**
     * The member's running plan, with what its provider lets them do: cancel while it renews, resume while a cancelled
     * one's paid period runs, and the provider's own page of it where there is one (the sandbox's test page).
     */
    async currentMembership(userId: number) {
      const m = await memberships.current(userId);
      if (!m) return null;
      const provider = providerNamed(providers, m.view.provider);
      return {
        ...m.view,
        can_cancel: m.view.status === "active" && Boolean(provider?.cancelSubscription),
        can_resume: m.view.status === "cancelled" && Boolean(provider?.resumeSubscription) && (!m.view.ends_at || m.view.ends_at > new Date()),
        provider_page: provider?.subscriptionPage?.(m.providerRef) ?? null,
      };
    },

    /** The member renews a cancelled plan again before its paid period runs out, where the provider allows it. */
    async resumeMembership(userId: number) {
      const m = await memberships.resumable(userId);
      const provider = providerNamed(providers, m.provider);
      if (!provider?.resumeSubscription || !provider.available()) throw new HttpError(409, NOT_RESUMABLE_HERE);
      await askProvider(() => provider.resumeSubscription!(m.providerRef, m.order.orderNo));
      await memberships.markResumed(m.id);
      return membershipView({ ...m, status: "active", cancelAtPeriodEnd: false });
    },

    /** The member cancels in the app: the provider stops renewing, what was paid runs to the period's end. */
    async cancelMembership(userId: number) {
      const m = await memberships.cancellable(userId);
      const provider = providerNamed(providers, m.provider);
      if (!provider?.cancelSubscription || !provider.available()) throw new HttpError(503, MSG.paymentUnavailable);
      await askProvider(() => provider.cancelSubscription!(m.providerRef, m.order.orderNo));
      await memberships.markCancelled(m.id);
      return membershipView({ ...m, status: "cancelled", cancelAtPeriodEnd: true });
    },
  };
}
