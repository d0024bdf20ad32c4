import type { Db, Tx } from "../../db/client.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import type { Product } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { formatMinor } from "./money.ts";

export const OFFER_ENDED = "This offer has ended";
export const PURCHASE_LIMIT_REACHED = "You have reached the purchase limit for this offer";

/** Orders that count toward a per-user limit: paid ones and ones still being paid. */
const COUNTED_STATUSES = [...OPEN_ORDER_STATUSES, "paid"] as const;

/** What the client shows for a product. Prices are integers in minor units of `currency`; `*_text` are English renderings. */
export function productView(p: Product, now = new Date()) {
  return {
    product_id: p.id,
    code: p.code,
    name: p.name,
    kind: p.kind,
    credits: p.credits,
    price: p.priceMinor,
    was_price: p.wasPriceMinor,
    currency: p.currency,
    price_text: formatMinor(p.priceMinor, p.currency),
    was_price_text: p.wasPriceMinor === null ? null : formatMinor(p.wasPriceMinor, p.currency),
    best_value: p.bestValue,
    per_user_limit: p.perUserLimit,
    interval_days: p.intervalDays,
    flash_sale_ends_at: p.flashSaleEndsAt,
    seconds_left: p.flashSaleEndsAt ? Math.max(0, Math.floor((p.flashSaleEndsAt.getTime() - now.getTime()) / 1000)) : null,
  };
}

export type ProductView = ReturnType<typeof productView>;

function onSale(p: Product, now: Date): boolean {
  return p.active && (p.flashSaleEndsAt === null || p.flashSaleEndsAt > now);
}

export function createProductsService(db: Db) {
  const order = [{ sortOrder: "asc" as const }, { id: "asc" as const }];

  async function purchasedCounts(userId: number, productIds: number[], tx: Tx | Db = db): Promise<Map<number, number>> {
    const rows = await tx.order.groupBy({
      by: ["productId"],
      where: { userId, productId: { in: productIds }, status: { in: [...COUNTED_STATUSES] } },
      _sum: { quantity: true },
    });
    return new Map(rows.map((r) => [r.productId, r._sum.quantity ?? 0]));
  }

  async function limitedOffers(now: Date): Promise<Product[]> {
    const rows = await db.product.findMany({ where: { active: true, OR: [{ kind: "flash_sale" }, { perUserLimit: { not: null } }] }, orderBy: order });
    return rows.filter((p) => onSale(p, now));
  }

  return {
    /** Credit packs and plans on sale (flash sales appear while they run). */
    async list(now = new Date()): Promise<ProductView[]> {
      const rows = await db.product.findMany({ where: { active: true }, orderBy: order });
      return rows.filter((p) => onSale(p, now)).map((p) => productView(p, now));
    },

    /** Limited offers (flash sales, per-user limits) running now, with their countdown. */
    async listLimited(now = new Date()): Promise<ProductView[]> {
      return (await limitedOffers(now)).map((p) => productView(p, now));
    },

    /** Limited offers this user can still buy, with how many remain for them. */
    async listLimitedForUser(userId: number, now = new Date()) {
      const offers = await limitedOffers(now);
      const bought = await purchasedCounts(
        userId,
        offers.map((p) => p.id),
      );
      return offers
        .map((p) => ({ ...productView(p, now), remaining: p.perUserLimit === null ? null : Math.max(0, p.perUserLimit - (bought.get(p.id) ?? 0)) }))
        .filter((p) => p.remaining === null || p.remaining > 0);
    },

    async detail(productId: number, now = new Date()): Promise<ProductView> {
      const p = await db.product.findUnique({ where: { id: productId } });
      if (!p?.active) throw HttpError.notFound();
      return productView(p, now);
    },

    /**
     * The product as it may be bought now by this user in this quantity. Runs inside the order-creating
     * transaction after the user row is locked, so two concurrent orders cannot both slip under a limit.
     */
    async purchasable(tx: Tx, userId: number, productId: number, quantity: number, now = new Date()): Promise<Product> {
      const p = await tx.product.findUnique({ where: { id: productId } });
      if (!p?.active) throw HttpError.notFound();
      if (!onSale(p, now)) throw HttpError.badRequest(OFFER_ENDED);
      if (p.kind === "subscription" && quantity !== 1) throw HttpError.badRequest(MSG.badRequest);
      if (p.perUserLimit !== null) {
        const bought = (await purchasedCounts(userId, [p.id], tx)).get(p.id) ?? 0;
        if (bought + quantity > p.perUserLimit) throw HttpError.conflict(PURCHASE_LIMIT_REACHED);
      }
      return p;
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
