import crypto from "node:crypto";
import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order, Product } from "../../db/generated/client.ts";
import type { Currency } from "../../contract/currencies.ts";
import { DEFAULT_CHANNEL } from "../../contract/pixels.ts";
import type { RefusalReason } from "../../contract/refusals.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { ProductsService } from "../products/products.service.ts";
import { lockUser } from "./orders.queries.ts";
import { OPEN_STATUSES } from "./orders.status.ts";

export const PLANS_ONLY = "This payment method is for the monthly plan only";

export interface NewOrder {
  userId: number;
  productId: number;
  quantity: number;
  provider: string;
  /** The visitor's currency; the order is priced in it where the provider accepts it and the product has a price in it. */
  currency?: Currency;
  /** The currencies the provider charges in (docs/decisions/300). */
  accepted: readonly Currency[];
  /** Credits granted on top of the product's when paid (crypto bonus). */
  bonusCredits?: number;
  /** The payment method renews a plan (a subscription): other products are refused before anything is created. */
  plansOnly?: boolean;
  /** The legal pages' version the buyer agreed to (null before any is published). */
  termsVersion?: number | null;
}

function newOrderNo(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, "");
  return `RV${day}${crypto.randomBytes(6).toString("hex").toUpperCase()}`;
}

/**
 * The user may pay only when their channel does not require a support-granted permission they lack. A visitor with
 * no channel, or one that does not exist, belongs to the default channel (as the pixels do), so its rule covers them.
 */
async function assertMayPay(tx: Tx, userId: number): Promise<{ channelId: string | null }> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { channelId: true, paymentPermission: true } });
  if (!user) throw HttpError.notFound();
  if (!user.paymentPermission) {
    const rows = await tx.channel.findMany({
      where: { code: { in: [user.channelId ?? DEFAULT_CHANNEL, DEFAULT_CHANNEL] } },
      select: { code: true, requiresPaymentPermission: true },
    });
    const channel = rows.find((c) => c.code === user.channelId) ?? rows.find((c) => c.code === DEFAULT_CHANNEL);
    if (channel?.requiresPaymentPermission) throw new HttpError(403, MSG.notAuthorized, { reason: "payment_permission_required" satisfies RefusalReason });
  }
  return { channelId: user.channelId };
}

/** An order from its creation to the provider's checkout, and the sweep of the ones never paid. */
export function createOrderCheckout(deps: { db: Db; config: Config; products: ProductsService; log: Logger }) {
  const { db, config, products, log } = deps;

  return {
    /** A pending order for a product, checked against the payment permission and the product's limits. */
    async createPending(n: NewOrder, now = new Date()): Promise<Order & { product: Product }> {
      return db.$transaction(async (tx) => {
        // Serialises this user's order creation so per-user limits hold under concurrent clicks.
        await lockUser.rows(tx, { userId: n.userId });
        const { channelId } = await assertMayPay(tx, n.userId);
        const { product, currency, regularMinor, nowMinor } = await products.purchasable(tx, n, now, channelId ?? undefined);
        if (n.plansOnly && product.kind !== "subscription") throw HttpError.badRequest(PLANS_ONLY);
        return tx.order.create({
          data: {
            orderNo: newOrderNo(now),
            userId: n.userId,
            productId: product.id,
            // name and prices as sold now: later changes by staff do not touch an order already made
            productName: product.name,
            quantity: n.quantity,
            amountMinor: regularMinor * n.quantity,
            finalPriceMinor: nowMinor * n.quantity,
            currency,
            credits: (product.credits + product.bonusCredits) * n.quantity,
            bonusCredits: n.bonusCredits ?? 0,
            provider: n.provider,
            channelId,
            termsVersion: n.termsVersion ?? null,
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

    /** The sweep: orders left unpaid past their time become expired. Called by a timer (or a test) with the current time. */
    async expireAbandoned(now = new Date()): Promise<number> {
      const expired = await db.order.updateMany({
        where: { status: { in: [...OPEN_STATUSES] }, expiresAt: { lte: now } },
        data: { status: "expired", failureReason: "abandoned" },
      });
      if (expired.count) log.info({ count: expired.count }, "expired abandoned orders");
      return expired.count;
    },
  };
}
