import crypto from "node:crypto";
import { subject } from "@casl/ability";
import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import { Prisma, type Order, type OrderStatus, type Product } from "../../db/generated/client.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import type { RefusalReason } from "../../contract/refusals.ts";
import { HttpError } from "../../http/errors.ts";
import { modelOfRow } from "../../db/rows.ts";
import { MSG } from "../../http/messages.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import type { PaymentOutcome, PaymentUpdate, Reversal, SubscriptionFacts } from "./payment-update.ts";
import type { ProductsService } from "../products/products.service.ts";
import { formatMinor } from "../products/money.ts";

/** SPEC.md §9: the browser polls queryPayment every 2 s, at most 50 times. */
export const POLL_INTERVAL_MS = 2000;
export const POLL_MAX_TRIES = 50;

export const REFUND_REASON_REQUIRED = "Please enter a reason for the refund";
export const ONLY_PAID_REFUNDABLE = "Only a paid order can be refunded";
/** failure_reason of an order paid after its account was banned: paid, credited to nobody, to be refunded (docs/decisions/075). */
export const BANNED_AT_PAYMENT = "account_banned";
export const PLANS_ONLY = "This payment method is for the monthly plan only";
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

/** The provider's amount and currency, where it says them, are the order's. */
function amountMatches(order: Order, u: PaymentUpdate): boolean {
  const amountDiffers = u.amountMinor !== undefined && u.amountMinor !== order.finalPriceMinor;
  const currencyDiffers = u.currency !== undefined && u.currency.toUpperCase() !== order.currency.toUpperCase();
  return !amountDiffers && !currencyDiffers;
}

function previewOf(order: Order, balance: number): RefundPreview {
  // an order paid after a ban was never credited: refunding it takes nothing back
  const granted = order.failureReason === BANNED_AT_PAYMENT ? 0 : order.credits + order.bonusCredits;
  const clawBack = Math.min(granted, Math.max(balance, 0));
  return { order_id: order.id, credits: granted, balance, claw_back: clawBack, already_spent: granted - clawBack };
}

/** Status names as the API shows them (SPEC.md §4). */
const STATUS_TEXT: Record<OrderStatus, string> = {
  pending: "pending",
  threeDsPending: "3ds_pending",
  paid: "paid",
  failed: "failed",
  expired: "expired",
  refunded: "refunded",
};

const OPEN_STATUSES: readonly OrderStatus[] = OPEN_ORDER_STATUSES;

/**
 * The order state machine. A verified success always wins over an earlier failure or expiry (the money was
 * taken, so the credits are owed); nothing but a refund moves an order out of paid, so a late or out-of-order
 * failure cannot undo a payment.
 */
export function nextStatus(current: OrderStatus, outcome: PaymentOutcome): OrderStatus | null {
  switch (outcome) {
    case "paid":
      return current === "paid" || current === "refunded" ? null : "paid";
    case "3ds_pending":
      return current === "pending" ? "threeDsPending" : null;
    case "failed":
      return OPEN_STATUSES.includes(current) ? "failed" : null;
  }
}

export function statusText(status: OrderStatus): string {
  return STATUS_TEXT[status];
}

/** The SPEC.md §3 order, amounts in minor units of `currency`. */
export function orderView(o: Order & { product?: Product | null }) {
  return {
    order_id: o.id,
    order_no: o.orderNo,
    order_status: statusText(o.status),
    amount: o.amountMinor,
    final_price: o.finalPriceMinor,
    currency: o.currency,
    final_price_text: formatMinor(o.finalPriceMinor, o.currency),
    quantity: o.quantity,
    credits: o.credits,
    bonus_credits: o.bonusCredits,
    received_amount: o.receivedAmount,
    received_currency: o.receivedCurrency,
    refunded_amount: o.refundedMinor,
    provider: o.provider,
    product_id: o.productId,
    product_name: o.product?.name,
    pay_url: OPEN_STATUSES.includes(o.status) ? o.payUrl : null,
    created_at: o.createdAt,
    paid_at: o.paidAt,
    expires_at: o.expiresAt,
  };
}

/** What the polling browser needs: the status, when to stop, and the SPEC.md §8 message for an unsuccessful end. */
export function paymentStatusView(o: Order) {
  const message = o.status === "failed" ? MSG.paymentDeclined : o.status === "expired" ? MSG.paymentFailed : null;
  return {
    order_id: o.id,
    order_no: o.orderNo,
    order_status: statusText(o.status),
    paid: o.status === "paid",
    keep_polling: OPEN_STATUSES.includes(o.status),
    message,
    poll_interval_ms: POLL_INTERVAL_MS,
    poll_max_tries: POLL_MAX_TRIES,
  };
}

export interface NewOrder {
  userId: number;
  productId: number;
  quantity: number;
  provider: string;
  /** Credits granted on top of the product's when paid (crypto bonus). */
  bonusCredits?: number;
  /** The payment method renews a plan (a subscription): other products are refused before anything is created. */
  plansOnly?: boolean;
}

export interface AppliedUpdate {
  /** True when this provider event was processed before: nothing happened now. */
  duplicate: boolean;
  /** The order after the update; null when unknown, or for a duplicate (nothing was read: reload it if needed). */
  order: Order | null;
  changed: boolean;
}

/** An `orders` row as PostgreSQL returns it (`SELECT *`). */
interface OrderRow {
  id: number;
  order_no: string;
  user_id: number;
  product_id: number;
  quantity: number;
  amount_minor: number;
  final_price_minor: number;
  currency: string;
  credits: number;
  bonus_credits: number;
  status: string;
  provider: string;
  provider_ref: string | null;
  pay_url: string | null;
  channel_id: string | null;
  failure_reason: string | null;
  received_amount: string | null;
  received_currency: string | null;
  refund_started_at: Date | null;
  provider_payment_ref: string | null;
  refunded_minor: number | null;
  created_at: Date;
  updated_at: Date;
  paid_at: Date | null;
  expires_at: Date;
}

const STATUS_OF_TEXT = Object.fromEntries(Object.entries(STATUS_TEXT).map(([k, v]) => [v, k])) as Record<string, OrderStatus>;

/** An `orders` row from raw SQL as Prisma's model (the status is stored under its SPEC name, e.g. `3ds_pending`). */
function orderFromRow(r: OrderRow): Order {
  return { ...modelOfRow<Order>({ ...r }), status: STATUS_OF_TEXT[r.status] };
}

function mayRead(ability: AppAbility, order: Order): boolean {
  return ability.can("read", subject("Order", { id: order.id, userId: order.userId } as Record<string, unknown>));
}

function newOrderNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return `RV${day}${crypto.randomBytes(6).toString("hex").toUpperCase()}`;
}

export function createOrdersService(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  products: ProductsService;
  memberships: MembershipsService;
  log: Logger;
  audit: AuditService;
  /** runs inside the transaction that marks an order paid (the purchase conversion's outbox, docs/decisions/121) */
  onPaid?: (tx: Tx, order: Order) => Promise<void>;
}) {
  const { db, config, credits, products, memberships, log, audit } = deps;

  /** The user may pay only when their channel does not require a support-granted permission they lack. */
  async function assertMayPay(tx: Tx, userId: number): Promise<{ channelId: string | null }> {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { channelId: true, paymentPermission: true } });
    if (!user) throw HttpError.notFound();
    if (user.channelId && !user.paymentPermission) {
      const channel = await tx.channel.findUnique({ where: { code: user.channelId }, select: { requiresPaymentPermission: true } });
      if (channel?.requiresPaymentPermission) throw new HttpError(403, MSG.notAuthorized, { reason: "payment_permission_required" satisfies RefusalReason });
    }
    return { channelId: user.channelId };
  }

  /**
   * The first statement of a provider fact's transaction, in one round trip: locks and reads the order the fact is
   * about (by the provider's reference, our order number, or the provider's id of the payment for facts that name only
   * that: refunds, chargebacks), stores the event in payment_events — the exactly-once gate: when a twin stored it
   * first, `stored` is false — and reads whether the order's owner is banned. The order's row is locked before the
   * event is inserted, so a twin waits on the lock and then meets the stored event. Raw SQL on purpose: this runs for
   * every notification, and one statement is a fraction of a Prisma query's CPU (bench/notifications).
   */
  async function lockAndStore(tx: Tx, provider: string, u: PaymentUpdate): Promise<{ order: Order | null; stored: boolean; ownerBanned: boolean }> {
    const [row] = await tx.$queryRaw<(OrderRow & { stored: boolean; owner_banned: boolean | null })[]>`
      WITH o AS (
        SELECT * FROM orders
        WHERE provider = ${provider} AND (provider_ref = ${u.providerRef ?? null} OR order_no = ${u.orderNo ?? null} OR provider_payment_ref = ${u.paymentRef ?? null})
        ORDER BY id LIMIT 1
        FOR UPDATE),
      event AS (
        INSERT INTO payment_events (provider, event_id, type, order_id, payload)
        VALUES (${provider}, ${u.eventId}, ${u.type}, (SELECT id FROM o), ${JSON.stringify(u.payload ?? null)}::jsonb)
        ON CONFLICT (provider, event_id) DO NOTHING
        RETURNING id)
      SELECT o.*, EXISTS (SELECT 1 FROM event) AS stored, (SELECT banned_at IS NOT NULL FROM users WHERE id = o.user_id) AS owner_banned
      FROM (SELECT 1) AS one LEFT JOIN o ON true`;
    const { stored, owner_banned: ownerBanned, ...order } = row;
    return { order: order.id === null ? null : orderFromRow(order), stored, ownerBanned: ownerBanned === true };
  }

  /** Changes an order's columns in one statement and answers the row (raw SQL: the notification path's writes, see lockAndStore). */
  async function updateOrder(tx: Tx, orderId: number, sets: Prisma.Sql[]): Promise<Order> {
    const [row] = await tx.$queryRaw<OrderRow[]>`UPDATE orders SET ${Prisma.join([...sets, Prisma.sql`updated_at = now()`])} WHERE id = ${orderId} RETURNING *`;
    return orderFromRow(row);
  }

  async function lockById(tx: Tx, orderId: number): Promise<Order> {
    const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM orders WHERE id = ${orderId} FOR UPDATE`;
    if (!rows.length) throw HttpError.notFound();
    return tx.order.findUniqueOrThrow({ where: { id: orderId } });
  }

  /** One order, if this principal may read it; another user's order is 404, never 403. */
  async function readable(orderId: number, ability: AppAbility): Promise<Order & { product: Product }> {
    const order = await db.order.findUnique({ where: { id: orderId }, include: { product: true } });
    if (!order || !mayRead(ability, order)) throw HttpError.notFound();
    return order;
  }

  /**
   * Takes back what a paid order granted, as far as the balance allows (never below zero: what was spent stays spent),
   * marks it refunded and audits both. One path for a staff refund and a provider's refund or chargeback; the ledger
   * key `order:<id>:refund` is the same for all of them, so whichever comes first takes the credits and the rest find
   * nothing to take. The caller holds the order's lock.
   */
  async function clawBack(tx: Tx, order: Order, by: { staffId: number | null; action: string; ledgerReason: string; note: string; refundedMinor?: number; audited?: Record<string, unknown> }): Promise<Order> {
    const [{ points }] = await tx.$queryRaw<{ points: number }[]>`SELECT points FROM users WHERE id = ${order.userId} FOR UPDATE`;
    const p = previewOf(order, points);
    if (p.claw_back > 0) {
      await credits.charge({ userId: order.userId, amount: p.claw_back, reason: by.ledgerReason, reference: `order:${order.orderNo}`, idempotencyKey: `order:${order.id}:refund`, staffId: by.staffId ?? undefined, note: by.note }, tx);
    }
    const refunded = await updateOrder(tx, order.id, [Prisma.sql`status = 'refunded'`, Prisma.sql`refund_started_at = NULL`, Prisma.sql`refunded_minor = ${by.refundedMinor ?? order.finalPriceMinor}`]);
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

  /**
   * A provider says it returned money of this order (decision 208). The whole payment: the staff refund's clawback.
   * Part of it: recorded on the order (refunded_minor) for support, nothing taken back — see the decision for why.
   */
  async function reversed(tx: Tx, provider: string, order: Order, r: Reversal): Promise<{ order: Order; changed: boolean }> {
    if (order.status !== "paid") {
      if (order.status !== "refunded") log.warn({ provider, orderNo: order.orderNo, status: order.status, kind: r.kind }, "refund or chargeback for an order that is not paid; nothing to take back");
      return { order, changed: false };
    }
    if (r.currency && r.currency.toUpperCase() !== order.currency.toUpperCase()) {
      log.error({ provider, orderNo: order.orderNo, currency: r.currency, kind: r.kind }, "refund or chargeback in another currency than the order; recorded, nothing taken back");
      return { order, changed: false };
    }
    // a provider's running total can arrive out of order (an older refund's event last): it never lowers what is recorded
    const total = Math.max(order.refundedMinor ?? 0, r.totalMinor ?? (r.amountMinor === undefined ? order.finalPriceMinor : (order.refundedMinor ?? 0) + r.amountMinor));
    const note = `${provider} ${r.kind}`;
    if (total >= order.finalPriceMinor) {
      const action = r.kind === "chargeback" ? "provider_chargeback" : "provider_refund";
      return { order: await clawBack(tx, order, { staffId: null, action, ledgerReason: r.kind === "chargeback" ? "chargeback" : "order_refund", note, refundedMinor: total }), changed: true };
    }
    log.warn({ provider, orderNo: order.orderNo, refunded: total, price: order.finalPriceMinor, kind: r.kind }, "partial refund recorded; credits not taken back");
    const partial = await updateOrder(tx, order.id, [Prisma.sql`refunded_minor = ${total}`]);
    await audit.record(tx, { staffId: null, action: `provider_partial_${r.kind}`, resource: "Order", resourceId: order.id, before: { refunded_minor: order.refundedMinor }, after: { refunded_minor: total, credits_taken_back: 0 }, reason: note });
    return { order: partial, changed: true };
  }

  /**
   * A provider returned the money of one renewal of the plan this order started (PayPal: a refunded or reversed sale,
   * decision 219): that period's credits go back once, through the memberships domain, and are audited on the order.
   * Part of a renewal returned is stored and moves nothing, like a partial refund of an order (decision 208).
   */
  async function renewalReversed(tx: Tx, provider: string, order: Order, sub: SubscriptionFacts, period: string, r: Reversal): Promise<boolean> {
    if ((r.currency && r.currency.toUpperCase() !== order.currency.toUpperCase()) || (r.amountMinor !== undefined && r.amountMinor < order.finalPriceMinor)) {
      log.warn({ provider, orderNo: order.orderNo, period, amount: r.amountMinor, currency: r.currency, kind: r.kind }, "part of a renewal returned, or in another currency; recorded, nothing taken back");
      return false;
    }
    const taken = await memberships.periodReversed(tx, provider, sub.ref, period, r.kind);
    if (!taken) return false;
    const note = `${provider} ${r.kind} of a renewal`;
    await audit.record(tx, { staffId: null, action: r.kind === "chargeback" ? "provider_chargeback" : "provider_refund", resource: "Order", resourceId: order.id, before: { period }, after: { period, credits_taken_back: taken.takenBack, already_spent: taken.alreadySpent }, reason: note });
    return true;
  }

  return {
    /** Guest merge (auth): the guest's orders become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.order.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** A pending order for a product, checked against the payment permission and the product's limits. */
    async createPending(n: NewOrder, now = new Date()): Promise<Order & { product: Product }> {
      return db.$transaction(async (tx) => {
        // Serialises this user's order creation so per-user limits hold under concurrent clicks.
        await tx.$queryRaw`SELECT id FROM users WHERE id = ${n.userId} FOR UPDATE`;
        const { channelId } = await assertMayPay(tx, n.userId);
        const product = await products.purchasable(tx, n.userId, n.productId, n.quantity, now);
        if (n.plansOnly && product.kind !== "subscription") throw HttpError.badRequest(PLANS_ONLY);
        return tx.order.create({
          data: {
            orderNo: newOrderNo(now),
            userId: n.userId,
            productId: product.id,
            quantity: n.quantity,
            amountMinor: (product.wasPriceMinor ?? product.priceMinor) * n.quantity,
            finalPriceMinor: product.priceMinor * n.quantity,
            currency: product.currency,
            credits: product.credits * n.quantity,
            bonusCredits: n.bonusCredits ?? 0,
            provider: n.provider,
            channelId,
            expiresAt: new Date(now.getTime() + config.ORDER_EXPIRY_MINUTES * 60_000),
          },
          include: { product: true },
        });
      });
    },

    async attachCheckout(orderId: number, providerRef: string, payUrl: string): Promise<void> {
      await db.order.update({ where: { id: orderId }, data: { providerRef, payUrl } });
    },

    /** The provider refused to open a checkout: the order can never be paid. */
    async markCheckoutFailed(orderId: number): Promise<void> {
      await db.order.updateMany({ where: { id: orderId, status: "pending" }, data: { status: "failed", failureReason: "checkout_failed" } });
    },

    readable,

    async readableByProviderRef(provider: string, providerRef: string, ability: AppAbility): Promise<Order> {
      const order = await db.order.findUnique({ where: { provider_providerRef: { provider, providerRef } } });
      if (!order || !mayRead(ability, order)) throw HttpError.notFound();
      return order;
    },

    async readableByOrderNo(orderNo: string, ability: AppAbility): Promise<Order> {
      const order = await db.order.findUnique({ where: { orderNo } });
      if (!order || !mayRead(ability, order)) throw HttpError.notFound();
      return order;
    },

    /**
     * A provider's orders that a payment may still arrive for, newest first (a capped round never starves the orders
     * most likely to be paid): open ones, and ones the sweep expired after `createdAfter` (money that arrives late is
     * still owed its credits, docs/decisions/210).
     */
    async awaitingPayment(provider: string, createdAfter: Date, limit: number): Promise<Order[]> {
      return db.order.findMany({
        where: { provider, createdAt: { gte: createdAfter }, OR: [{ status: { in: [...OPEN_STATUSES] } }, { status: "expired", failureReason: "abandoned" }] },
        orderBy: { id: "desc" },
        take: limit,
      });
    },

    async reload(orderId: number): Promise<Order> {
      return db.order.findUniqueOrThrow({ where: { id: orderId } });
    },

    async listForUser(userId: number, page: number, limit: number) {
      const where = { userId };
      const [rows, total] = await db.$transaction([
        db.order.findMany({ where, include: { product: true }, orderBy: { id: "desc" }, skip: (page - 1) * limit, take: limit }),
        db.order.count({ where }),
      ]);
      return { list: rows.map(orderView), total, page, limit };
    },

    /** Records that a pixel reported this order; true only the first time, so the purchase pixel fires once. */
    async logPixelAction(orderId: number, pixelId: string, ability: AppAbility): Promise<{ first: boolean }> {
      const order = await readable(orderId, ability);
      const created = await db.orderActionLog.createMany({ data: [{ orderId: order.id, pixelId }], skipDuplicates: true });
      return { first: created.count === 1 };
    },

    /**
     * Applies one verified provider update exactly once. The payment_events row (unique per provider and event id),
     * the order's status change and the credit grant commit together or not at all; the order row is locked first
     * so concurrent deliveries queue behind each other and find the event already stored.
     */
    async applyUpdate(provider: string, u: PaymentUpdate): Promise<AppliedUpdate> {
      // Providers redeliver: an event already stored needs no transaction and no lock (one indexed read). The
      // insert below stays the gate for a first delivery racing its twin.
      const seen = await db.$queryRaw<{ id: number }[]>`SELECT id FROM payment_events WHERE provider = ${provider} AND event_id = ${u.eventId}`;
      if (seen.length) return { duplicate: true, order: null, changed: false };
      return db.$transaction(async (tx) => {
        const { order, stored, ownerBanned } = await lockAndStore(tx, provider, u);
        if (!stored) return { duplicate: true, order, changed: false };
        if (!order) {
          if (u.outcome) log.warn({ provider, eventId: u.eventId, orderNo: u.orderNo, ref: u.providerRef }, "payment notification for an unknown order");
          return { duplicate: false, order: null, changed: false };
        }
        const sub = u.subscription;
        // PayPal names each charge of a subscription (its sale), not the period: the first sale is the order's own payment.
        const ordersOwnCharge = u.paymentRef !== undefined && (order.providerPaymentRef ?? u.paymentRef) === u.paymentRef;
        const renewalPeriod = sub?.renewalPeriod && !ordersOwnCharge ? sub.renewalPeriod : undefined;
        const next = u.outcome && !u.reversal && !renewalPeriod ? nextStatus(order.status, u.outcome) : null;
        // What arrived is shown on the order whatever it settles (a short crypto payment credits nothing), and the
        // provider's payment id is kept the first time it is named (refunds and polling need it). Written with the
        // status change when there is one (one statement fewer), else on their own now.
        const learned = [
          ...(u.received ? [Prisma.sql`received_amount = ${u.received.amount}`, Prisma.sql`received_currency = ${u.received.currency}`] : []),
          ...(u.paymentRef && !order.providerPaymentRef ? [Prisma.sql`provider_payment_ref = ${u.paymentRef}`] : []),
        ];
        const current = learned.length && !next ? await updateOrder(tx, order.id, learned) : order;
        if (u.reversal && sub && renewalPeriod) return { duplicate: false, order: current, changed: await renewalReversed(tx, provider, current, sub, renewalPeriod, u.reversal) };
        if (u.reversal) return { duplicate: false, ...(await reversed(tx, provider, current, u.reversal)) };
        if (sub && renewalPeriod) {
          // A renewal pays a later period of the plan this order started; checked like any payment before crediting.
          if (!amountMatches(current, u)) {
            log.error({ provider, orderNo: current.orderNo, paid: u.amountMinor, currency: u.currency }, "renewal amount does not match the plan; not credited");
            return { duplicate: false, order: current, changed: false };
          }
          const renewed = await memberships.renewed(tx, current, provider, { ...sub, renewalPeriod });
          return { duplicate: false, order: current, changed: renewed };
        }
        if (sub?.state) await memberships.stateChanged(tx, current, provider, sub);
        if (!next) return { duplicate: false, order: current, changed: false };
        if (next === "paid") {
          if (!amountMatches(current, u)) {
            log.error({ provider, orderNo: current.orderNo, paid: u.amountMinor, currency: u.currency }, "paid amount does not match the order; not credited");
            const flagged = await updateOrder(tx, current.id, [...learned, Prisma.sql`failure_reason = 'amount_mismatch'`]);
            return { duplicate: false, order: flagged, changed: false };
          }
          if (ownerBanned) {
            // the money came in, but a banned account gets nothing: the caller returns it through the provider
            log.warn({ provider, orderNo: current.orderNo, userId: current.userId }, "order paid after its account was banned; not credited");
            const held = await updateOrder(tx, current.id, [...learned, Prisma.sql`status = 'paid'`, Prisma.sql`paid_at = now()`, Prisma.sql`failure_reason = ${BANNED_AT_PAYMENT}`]);
            return { duplicate: false, order: held, changed: true };
          }
          await credits.grant({ userId: current.userId, amount: current.credits, reason: "purchase", reference: `order:${current.orderNo}`, idempotencyKey: `order:${current.id}:paid` }, tx);
          if (current.bonusCredits > 0) {
            await credits.grant({ userId: current.userId, amount: current.bonusCredits, reason: "crypto_bonus", reference: `order:${current.orderNo}`, idempotencyKey: `order:${current.id}:bonus` }, tx);
          }
          const paid = await updateOrder(tx, current.id, [...learned, Prisma.sql`status = 'paid'`, Prisma.sql`paid_at = now()`, Prisma.sql`failure_reason = NULL`]);
          if (sub) await memberships.started(tx, paid, provider, sub);
          await deps.onPaid?.(tx, paid);
          return { duplicate: false, order: paid, changed: true };
        }
        const updated = await updateOrder(tx, current.id, [...learned, Prisma.sql`status = ${statusText(next)}::"OrderStatus"`, Prisma.sql`failure_reason = ${u.failureReason ?? null}`]);
        return { duplicate: false, order: updated, changed: true };
      });
    },

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
          await audit.record(tx, { staffId: r.staffId, action: "refund_order", resource: "Order", resourceId: order.id, before: { status: "paid" }, after: { status: "refunded", credits_taken_back: 0, taken_back_by: "provider_notification" }, reason });
          return order;
        }
        if (order.status !== "paid" || !order.refundStartedAt) throw HttpError.conflict(ONLY_PAID_REFUNDABLE);
        // money returned by hand: what was owed back and the reference of the transfer staff sent (decision 220)
        const audited = r.returnReference ? { returned_by_hand: { amount: order.receivedAmount, currency: order.receivedCurrency, reference: r.returnReference } } : undefined;
        return clawBack(tx, order, { staffId: r.staffId, action: "refund_order", ledgerReason: "order_refund", note: reason, audited });
      });
    },

    /** A held order (paid after a ban, never credited) whose money the provider has returned. */
    async markBannedRefunded(orderId: number): Promise<Order> {
      await db.order.updateMany({ where: { id: orderId, status: "paid", failureReason: BANNED_AT_PAYMENT }, data: { status: "refunded" } });
      return db.order.findUniqueOrThrow({ where: { id: orderId } });
    },

    /** The sweep: orders left unpaid past their time become expired. Called by a timer (or a test) with the current time. */
    async expireAbandoned(now = new Date()): Promise<number> {
      const expired = await db.order.updateMany({ where: { status: { in: [...OPEN_STATUSES] }, expiresAt: { lte: now } }, data: { status: "expired", failureReason: "abandoned" } });
      if (expired.count) log.info({ count: expired.count }, "expired abandoned orders");
      return expired.count;
    },
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
