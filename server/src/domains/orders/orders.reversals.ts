import type { Logger } from "pino";
import type { Tx } from "../../db/client.ts";
import type { Order } from "../../db/generated/client.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import { changeOrder } from "./orders.queries.ts";
import type { ClawBackBy } from "./orders.refunds.ts";
import type { Reversal, SubscriptionFacts } from "./payment-update.ts";

/** A provider returned money: of a paid order, or of one renewal of the plan an order started. */
export function createOrderReversals(deps: {
  log: Logger;
  audit: AuditService;
  memberships: MembershipsService;
  clawBack: (tx: Tx, order: Order, by: ClawBackBy) => Promise<Order>;
}) {
  const { log, audit, memberships, clawBack } = deps;

  return {
    /**
     * A provider says it returned money of this order (decision 208). The whole payment: the staff refund's clawback.
     * Part of it: recorded on the order (refunded_minor) for support, nothing taken back — see the decision for why.
     */
    async reversed(tx: Tx, provider: string, order: Order, r: Reversal): Promise<{ order: Order; changed: boolean }> {
      if (order.status !== "paid") {
        if (order.status !== "refunded")
          log.warn(
            { provider, orderNo: order.orderNo, status: order.status, kind: r.kind },
            "refund or chargeback for an order that is not paid; nothing to take back",
          );
        return { order, changed: false };
      }
      if (r.currency && r.currency.toUpperCase() !== order.currency.toUpperCase()) {
        log.error(
          { provider, orderNo: order.orderNo, currency: r.currency, kind: r.kind },
          "refund or chargeback in another currency than the order; recorded, nothing taken back",
        );
        return { order, changed: false };
      }
      // a provider's running total can arrive out of order (an older refund's event last): it never lowers what is recorded
      const total = Math.max(
        order.refundedMinor ?? 0,
        r.totalMinor ?? (r.amountMinor === undefined ? order.finalPriceMinor : (order.refundedMinor ?? 0) + r.amountMinor),
      );
      const note = `${provider} ${r.kind}`;
      if (total >= order.finalPriceMinor) {
        const action = r.kind === "chargeback" ? "provider_chargeback" : "provider_refund";
        return {
          order: await clawBack(tx, order, {
            staffId: null,
            action,
            ledgerReason: r.kind === "chargeback" ? "chargeback" : "order_refund",
            note,
            refundedMinor: total,
          }),
          changed: true,
        };
      }
      log.warn(
        { provider, orderNo: order.orderNo, refunded: total, price: order.finalPriceMinor, kind: r.kind },
        "partial refund recorded; credits not taken back",
      );
      const partial = await changeOrder(tx, order.id, { refundedMinor: total });
      await audit.record(tx, {
        staffId: null,
        action: `provider_partial_${r.kind}`,
        resource: "Order",
        resourceId: order.id,
        before: { refunded_minor: order.refundedMinor },
        after: { refunded_minor: total, credits_taken_back: 0 },
        reason: note,
      });
      return { order: partial, changed: true };
    },

    /**
     * A provider returned the money of one renewal of the plan this order started (PayPal: a refunded or reversed sale,
     * decision 219): that period's credits go back once, through the memberships domain, and are audited on the order.
     * Part of a renewal returned is stored and moves nothing, like a partial refund of an order (decision 208).
     */
    async renewalReversed(tx: Tx, provider: string, order: Order, sub: SubscriptionFacts, period: string, r: Reversal): Promise<boolean> {
      if ((r.currency && r.currency.toUpperCase() !== order.currency.toUpperCase()) || (r.amountMinor !== undefined && r.amountMinor < order.finalPriceMinor)) {
        log.warn(
          { provider, orderNo: order.orderNo, period, amount: r.amountMinor, currency: r.currency, kind: r.kind },
          "part of a renewal returned, or in another currency; recorded, nothing taken back",
        );
        return false;
      }
      const taken = await memberships.periodReversed(tx, provider, sub.ref, period, r.kind);
      if (!taken) return false;
      const note = `${provider} ${r.kind} of a renewal`;
      await audit.record(tx, {
        staffId: null,
        action: r.kind === "chargeback" ? "provider_chargeback" : "provider_refund",
        resource: "Order",
        resourceId: order.id,
        before: { period },
        after: { period, credits_taken_back: taken.takenBack, already_spent: taken.alreadySpent },
        reason: note,
      });
      return true;
    },
  };
}

export type OrderReversals = ReturnType<typeof createOrderReversals>;
