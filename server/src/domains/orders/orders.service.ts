import crypto from "node:crypto";
import { subject } from "@casl/ability";
import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order, OrderStatus, Product } from "../../db/generated/client.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { PaymentOutcome, PaymentUpdate } from "./payment-update.ts";
import type { ProductsService } from "../products/products.service.ts";
import { formatMinor } from "../products/money.ts";

/** SPEC.md §9: the browser polls queryPayment every 2 s, at most 50 times. */
export const POLL_INTERVAL_MS = 2000;
export const POLL_MAX_TRIES = 50;

export const REFUND_REASON_REQUIRED = "Please enter a reason for the refund";
export const ONLY_PAID_REFUNDABLE = "Only a paid order can be refunded";
export const CREDITS_ALREADY_SPENT = "The credits of this order have already been spent";
/** failure_reason of an order paid after its account was banned: paid, credited to nobody, to be refunded (docs/decisions/075). */
export const BANNED_AT_PAYMENT = "account_banned";
/** A refund waits on the provider inside its transaction; give it that long. */
const REFUND_TIMEOUT_MS = 30_000;

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
}

export interface AppliedUpdate {
  /** True when this provider event was processed before: nothing happened now. */
  duplicate: boolean;
  order: Order | null;
  changed: boolean;
}

function mayRead(ability: AppAbility, order: Order): boolean {
  return ability.can("read", subject("Order", { id: order.id, userId: order.userId } as Record<string, unknown>));
}

function newOrderNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return `RV${day}${crypto.randomBytes(6).toString("hex").toUpperCase()}`;
}

export function createOrdersService(deps: { db: Db; config: Config; credits: CreditsService; products: ProductsService; log: Logger; audit: AuditService }) {
  const { db, config, credits, products, log, audit } = deps;

  /** The user may pay only when their channel does not require a support-granted permission they lack. */
  async function assertMayPay(tx: Tx, userId: number): Promise<{ channelId: string | null }> {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { channelId: true, paymentPermission: true } });
    if (!user) throw HttpError.notFound();
    if (user.channelId && !user.paymentPermission) {
      const channel = await tx.channel.findUnique({ where: { code: user.channelId }, select: { requiresPaymentPermission: true } });
      if (channel?.requiresPaymentPermission) throw new HttpError(403, MSG.notAuthorized, { reason: "payment_permission_required" });
    }
    return { channelId: user.channelId };
  }

  /** Locks the order a provider update is about (by the provider's reference or our order number). */
  async function lockOrder(tx: Tx, provider: string, u: PaymentUpdate): Promise<Order | null> {
    const rows = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM orders
      WHERE provider = ${provider} AND (provider_ref = ${u.providerRef ?? null} OR order_no = ${u.orderNo ?? null})
      ORDER BY id LIMIT 1
      FOR UPDATE`;
    return rows.length ? tx.order.findUnique({ where: { id: rows[0].id } }) : null;
  }

  /** One order, if this principal may read it; another user's order is 404, never 403. */
  async function readable(orderId: number, ability: AppAbility): Promise<Order & { product: Product }> {
    const order = await db.order.findUnique({ where: { id: orderId }, include: { product: true } });
    if (!order || !mayRead(ability, order)) throw HttpError.notFound();
    return order;
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
      return db.$transaction(async (tx) => {
        const order = await lockOrder(tx, provider, u);
        const stored = await tx.$queryRaw<{ id: number }[]>`
          INSERT INTO payment_events (provider, event_id, type, order_id, payload)
          VALUES (${provider}, ${u.eventId}, ${u.type}, ${order?.id ?? null}, ${JSON.stringify(u.payload ?? null)}::jsonb)
          ON CONFLICT (provider, event_id) DO NOTHING
          RETURNING id`;
        if (stored.length === 0) return { duplicate: true, order, changed: false };
        if (!order || !u.outcome) {
          if (!order && u.outcome) log.warn({ provider, eventId: u.eventId, orderNo: u.orderNo, ref: u.providerRef }, "payment notification for an unknown order");
          return { duplicate: false, order, changed: false };
        }
        const next = nextStatus(order.status, u.outcome);
        if (!next) return { duplicate: false, order, changed: false };
        if (next === "paid") {
          const amountDiffers = u.amountMinor !== undefined && u.amountMinor !== order.finalPriceMinor;
          const currencyDiffers = u.currency !== undefined && u.currency.toUpperCase() !== order.currency.toUpperCase();
          if (amountDiffers || currencyDiffers) {
            log.error({ provider, orderNo: order.orderNo, paid: u.amountMinor, currency: u.currency }, "paid amount does not match the order; not credited");
            const flagged = await tx.order.update({ where: { id: order.id }, data: { failureReason: "amount_mismatch" } });
            return { duplicate: false, order: flagged, changed: false };
          }
          const owner = await tx.user.findUniqueOrThrow({ where: { id: order.userId }, select: { bannedAt: true } });
          if (owner.bannedAt) {
            // the money came in, but a banned account gets nothing: the caller returns it through the provider
            log.warn({ provider, orderNo: order.orderNo, userId: order.userId }, "order paid after its account was banned; not credited");
            const held = await tx.order.update({ where: { id: order.id }, data: { status: "paid", paidAt: new Date(), failureReason: BANNED_AT_PAYMENT } });
            return { duplicate: false, order: held, changed: true };
          }
          await credits.grant({ userId: order.userId, amount: order.credits, reason: "purchase", reference: `order:${order.orderNo}`, idempotencyKey: `order:${order.id}:paid` }, tx);
          const paid = await tx.order.update({ where: { id: order.id }, data: { status: "paid", paidAt: new Date(), failureReason: null } });
          return { duplicate: false, order: paid, changed: true };
        }
        const updated = await tx.order.update({ where: { id: order.id }, data: { status: next, failureReason: u.failureReason ?? null } });
        return { duplicate: false, order: updated, changed: true };
      });
    },

    /**
     * Staff refund: takes back the order's credits, marks it refunded, writes the audit row and returns the money
     * through the provider, all in one transaction — if the provider refuses, nothing changes; if the credits were
     * spent, the money is not returned.
     */
    async refund(r: { orderId: number; staffId: number; reason: string }, returnMoney: (order: Order) => Promise<void>): Promise<Order> {
      const reason = r.reason?.trim() ?? "";
      if (!reason) throw HttpError.badRequest(REFUND_REASON_REQUIRED);
      return db.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<{ id: number }[]>`SELECT id FROM orders WHERE id = ${r.orderId} FOR UPDATE`;
          if (!rows.length) throw HttpError.notFound();
          const order = await tx.order.findUniqueOrThrow({ where: { id: r.orderId } });
          if (order.status !== "paid") throw HttpError.conflict(ONLY_PAID_REFUNDABLE);
          const credited = order.failureReason !== BANNED_AT_PAYMENT;
          try {
            if (credited) await credits.charge({ userId: order.userId, amount: order.credits, reason: "order_refund", reference: `order:${order.orderNo}`, idempotencyKey: `order:${order.id}:refund`, staffId: r.staffId, note: reason }, tx);
          } catch (err) {
            if (err instanceof HttpError && err.status === 402) throw HttpError.conflict(CREDITS_ALREADY_SPENT);
            throw err;
          }
          const refunded = await tx.order.update({ where: { id: order.id }, data: { status: "refunded" } });
          await audit.record(tx, { staffId: r.staffId, action: "refund_order", resource: "Order", resourceId: order.id, before: { status: "paid" }, after: { status: "refunded", credits: credited ? -order.credits : 0 }, reason });
          await returnMoney(order);
          return refunded;
        },
        { timeout: REFUND_TIMEOUT_MS },
      );
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
