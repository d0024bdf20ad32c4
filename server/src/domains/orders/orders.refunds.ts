import type { Db, Tx } from "../../db/client.ts";
import type { Order } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import { changeOrder, lockOrder, lockUserPoints } from "./orders.queries.ts";
import { BANNED_AT_PAYMENT } from "./orders.status.ts";

export const REFUND_REASON_REQUIRED = "Please enter a reason for the refund";
export const ONLY_PAID_REFUNDABLE = "Only a paid order can be refunded";
export const REFUND_IN_PROGRESS = "A refund of this order is already in progress";
export const REFUND_BALANCE_CHANGED = "The user's balance changed; please review the refund again";
/** A refund claim older than this was left by a crashed request and may be taken again. */
const REFUND_CLAIM_SECONDS = 120;

export interface RefundRequest {
  orderId: number;
  staffId: number;
  reason: string;
  /** The already-spent credits the agent saw in the preview; a different figure now means the balance moved. */
  acknowledgedSpent?: number;
  /** The money went back by hand (JPay): the reference of the transfer staff sent, recorded in the audit row. */
  returnReference?: string;
}

export interface RefundPreview {
  order_id: number;
  /** Credits the order granted (pack plus any bonus). */
  credits: number;
  balance: number;
  /** What the refund takes back: the order's credits, but never more than the balance. */
  claw_back: number;
  /** Credits of this order the user already spent; they are not taken back. */
  already_spent: number;
}

/** Who takes an order's credits back, and how the ledger and the audit row name it. */
export interface ClawBackBy {
  staffId: number | null;
  action: string;
  ledgerReason: string;
  note: string;
  refundedMinor?: number;
  audited?: Record<string, unknown>;
}

function previewOf(order: Order, balance: number): RefundPreview {
  // an order paid after a ban was never credited: refunding it takes nothing back
  const granted = order.failureReason === BANNED_AT_PAYMENT ? 0 : order.credits + order.bonusCredits;
  const clawBack = Math.min(granted, Math.max(balance, 0));
  return { order_id: order.id, credits: granted, balance, claw_back: clawBack, already_spent: granted - clawBack };
}

async function lockById(tx: Tx, orderId: number): Promise<Order> {
  const rows = await lockOrder.rows(tx, { id: orderId });
  if (!rows.length) throw HttpError.notFound();
  return tx.order.findUniqueOrThrow({ where: { id: orderId } });
}

/** Refunds: a staff refund in its steps, and the clawback it shares with a provider's refund or chargeback. */
export function createOrderRefunds(deps: { db: Db; credits: CreditsService; memberships: MembershipsService; audit: AuditService }) {
  const { db, credits, memberships, audit } = deps;

  /**
   * Takes back what a paid order granted, as far as the balance allows (never below zero: what was spent stays spent),
   * marks it refunded and audits both. One path for a staff refund and a provider's refund or chargeback; the ledger
   * key `order:<id>:refund` is the same for all of them, so whichever comes first takes the credits and the rest find
   * nothing to take. The caller holds the order's lock.
   */
  async function clawBack(tx: Tx, order: Order, by: ClawBackBy): Promise<Order> {
    const [{ points }] = await lockUserPoints.rows(tx, { userId: order.userId });
    const p = previewOf(order, points);
    if (p.claw_back > 0) {
      await credits.charge(
        {
          userId: order.userId,
          amount: p.claw_back,
          reason: by.ledgerReason,
          reference: `order:${order.orderNo}`,
          idempotencyKey: `order:${order.id}:refund`,
          staffId: by.staffId ?? undefined,
          note: by.note,
        },
        tx,
      );
    }
    const refunded = await changeOrder(tx, order.id, {
      status: "refunded",
      refundClaimCleared: true,
      refundedMinor: by.refundedMinor ?? order.finalPriceMinor,
    });
    // a refunded plan order takes its membership with it (decision 219)
    await memberships.orderRefunded(tx, order.id);
    await audit.record(tx, {
      staffId: by.staffId,
      action: by.action,
      resource: "Order",
      resourceId: order.id,
      before: { status: "paid", points },
      after: { status: "refunded", points: points - p.claw_back, credits_taken_back: p.claw_back, already_spent: p.already_spent, ...by.audited },
      reason: by.note,
    });
    return refunded;
  }

  return {
    clawBack,

    /** What a staff refund of this order would take back: the agent sees it (and what was already spent) before confirming. */
    async refundPreview(orderId: number): Promise<RefundPreview> {
      const order = await db.order.findUnique({ where: { id: orderId }, include: { user: { select: { points: true } } } });
      if (!order) throw HttpError.notFound();
      return previewOf(order, order.user.points);
    },

    /**
     * First step of a staff refund: claims the paid order (refund_started_at) and commits, so the provider's refund
     * call happens outside any transaction holding the order's lock, and a second agent cannot start the same refund.
     * A claim older than REFUND_CLAIM_SECONDS (the server died mid-refund) may be taken again: provider refunds are
     * idempotent per order.
     */
    async beginRefund(r: RefundRequest): Promise<Order> {
      if (!r.reason?.trim()) throw HttpError.badRequest(REFUND_REASON_REQUIRED);
      return db.$transaction(async (tx) => {
        const order = await lockById(tx, r.orderId);
        if (order.status !== "paid") throw HttpError.conflict(ONLY_PAID_REFUNDABLE);
        if (order.refundStartedAt && Date.now() - order.refundStartedAt.getTime() < REFUND_CLAIM_SECONDS * 1000) throw HttpError.conflict(REFUND_IN_PROGRESS);
        if (r.acknowledgedSpent !== undefined) {
          const { points } = await tx.user.findUniqueOrThrow({ where: { id: order.userId }, select: { points: true } });
          if (previewOf(order, points).already_spent !== r.acknowledgedSpent) throw HttpError.conflict(REFUND_BALANCE_CHANGED);
        }
        return tx.order.update({ where: { id: order.id }, data: { refundStartedAt: new Date() } });
      });
    },

    /** The provider refused or could not be reached: the order stays paid and can be refunded again. */
    async abandonRefund(orderId: number): Promise<void> {
      await db.order.updateMany({ where: { id: orderId, status: "paid" }, data: { refundStartedAt: null } });
    },

    /**
     * Last step, after the provider returned the money: in one transaction the order becomes refunded, the credits
     * it granted are taken back as far as the balance allows (never below zero; what was spent stays spent), and the
     * audit row records both.
     */
    async finishRefund(r: RefundRequest): Promise<Order> {
      const reason = r.reason.trim();
      return db.$transaction(async (tx) => {
        const order = await lockById(tx, r.orderId);
        if (order.status === "refunded") {
          // The provider's notification of this very refund arrived while its refund call was answering, and took the
          // credits back already (decision 208): the agent's refund is done, nothing moves twice.
          await audit.record(tx, {
            staffId: r.staffId,
            action: "refund_order",
            resource: "Order",
            resourceId: order.id,
            before: { status: "paid" },
            after: { status: "refunded", credits_taken_back: 0, taken_back_by: "provider_notification" },
            reason,
          });
          return order;
        }
        if (order.status !== "paid" || !order.refundStartedAt) throw HttpError.conflict(ONLY_PAID_REFUNDABLE);
        // money returned by hand: what was owed back and the reference of the transfer staff sent (decision 220)
        const audited = r.returnReference
          ? { returned_by_hand: { amount: order.receivedAmount, currency: order.receivedCurrency, reference: r.returnReference } }
          : undefined;
        return clawBack(tx, order, { staffId: r.staffId, action: "refund_order", ledgerReason: "order_refund", note: reason, audited });
      });
    },

    /** A held order (paid after a ban, never credited) whose money the provider has returned. */
    async markBannedRefunded(orderId: number): Promise<Order> {
      await db.order.updateMany({ where: { id: orderId, status: "paid", failureReason: BANNED_AT_PAYMENT }, data: { status: "refunded" } });
      return db.order.findUniqueOrThrow({ where: { id: orderId } });
    },
  };
}
