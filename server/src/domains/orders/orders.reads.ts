import { subject } from "@casl/ability";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order, Product } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { OPEN_STATUSES } from "./orders.status.ts";
import { orderView } from "./orders.views.ts";

function mayRead(ability: AppAbility, order: Order): boolean {
  return ability.can("read", subject("Order", { id: order.id, userId: order.userId } as Record<string, unknown>));
}

/** Orders as their owner (or staff) reads them, and whose they are. */
export function createOrderReads(db: Db) {
  /** One order, if this principal may read it; another user's order is 404, never 403. */
  async function readable(orderId: number, ability: AppAbility): Promise<Order & { product: Product }> {
    const order = await db.order.findUnique({ where: { id: orderId }, include: { product: true } });
    if (!order || !mayRead(ability, order)) throw HttpError.notFound();
    return order;
  }

  return {
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

    /** Guest merge (auth): the guest's orders become the account's, in the sign-in's transaction. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.order.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /**
     * Account erasure (privacy, decision 262): orders are kept for the accounts (amounts, provider references, dates),
     * without the checkout link and the provider's failure text, which may name the payer.
     */
    async eraseUser(tx: Tx, userId: number): Promise<string[]> {
      await tx.order.updateMany({ where: { userId }, data: { payUrl: null, failureReason: null } });
      return [];
    },
  };
}
