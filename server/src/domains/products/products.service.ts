import type { Db, Tx } from "../../db/client.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import type { Product } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { translationsOf } from "../../http/translations.ts";
import { formatMinor } from "./money.ts";
import { bestValue, priceNow, saleRunning } from "./products.pricing.ts";

export const OFFER_ENDED = "This offer has ended";
export const PURCHASE_LIMIT_REACHED = "You have reached the purchase limit for this offer";

/** Orders that count toward a per-user limit: paid ones and ones still being paid. */
const COUNTED_STATUSES = [...OPEN_ORDER_STATUSES, "paid"] as const;

/**
 * What the client shows for a product. Prices are integers in minor units of `currency`; `*_text` are English
 * renderings. `price` is what it costs now; `was_price` is its regular price, shown only while a sale runs
 * (docs/decisions/266). `sale_starts_at` tells a visitor's app which sales it has shown already.
 */
export function productView(p: Product, now = new Date(), best: ReadonlySet<number> = new Set()) {
  const running = saleRunning(p, now);
  const price = priceNow(p, now);
  const endsAt = running ? p.saleEndsAt : null;
  return {
    product_id: p.id,
    code: p.code,
    name: p.name,
    names: translationsOf(p.names),
    kind: p.kind,
    credits: p.credits,
    bonus_credits: p.bonusCredits,
    price,
    was_price: running ? p.priceMinor : null,
    currency: p.currency,
    price_text: formatMinor(price, p.currency),
    was_price_text: running ? formatMinor(p.priceMinor, p.currency) : null,
    best_value: best.has(p.id),
    per_user_limit: p.perUserLimit,
    interval_days: p.intervalDays,
    flash_sale_ends_at: endsAt,
    sale_starts_at: running ? p.saleStartsAt : null,
    seconds_left: endsAt ? Math.max(0, Math.floor((endsAt.getTime() - now.getTime()) / 1000)) : null,
  };
}

export type ProductView = ReturnType<typeof productView>;

/** Visible in the caller's channel: none listed = every channel. */
const visibleIn = (p: Product, channel?: string) => p.channels.length === 0 || (channel !== undefined && p.channels.includes(channel));

/** Sold now: active, visible in the caller's channel, and a sale-only product only while its sale runs. */
function onSale(p: Product, now: Date, channel?: string): boolean {
  return p.active && visibleIn(p, channel) && (p.kind !== "flash_sale" || saleRunning(p, now));
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

  async function offered(now: Date, channel?: string): Promise<Product[]> {
    return (await db.product.findMany({ where: { active: true }, orderBy: order })).filter((p) => onSale(p, now, channel));
  }

  const views = (rows: Product[], now: Date, all: Product[] = rows) => {
    const best = bestValue(all);
    return rows.map((p) => productView(p, now, best));
  };

  /** Limited offers: a sale running now, or a per-user limit. */
  const limited = (rows: Product[], now: Date) => rows.filter((p) => saleRunning(p, now) || p.perUserLimit !== null);

  return {
    /** Credit packs and plans on sale in the caller's channel (sales at their sale price while they run). */
    async list(now = new Date(), channel?: string): Promise<ProductView[]> {
      return views(await offered(now, channel), now);
    },

    /** Limited offers (sales, per-user limits) running now, with their countdown. */
    async listLimited(now = new Date(), channel?: string): Promise<ProductView[]> {
      const all = await offered(now, channel);
      return views(limited(all, now), now, all);
    },

    /** Limited offers this user can still buy, with how many remain for them. */
    async listLimitedForUser(userId: number, now = new Date(), channel?: string) {
      const all = await offered(now, channel);
      const offers = limited(all, now);
      const bought = await purchasedCounts(
        userId,
        offers.map((p) => p.id),
      );
      return views(offers, now, all)
        .map((v, i) => {
          const cap = offers[i].perUserLimit;
          return { ...v, remaining: cap === null ? null : Math.max(0, cap - (bought.get(v.product_id) ?? 0)) };
        })
        .filter((p) => p.remaining === null || p.remaining > 0);
    },

    /** What one of the product costs at `now` (the sale price while its sale runs). */
    priceNow,

    /** One product as the caller's channel lists it: another channel's product is not found, "best value" is this channel's. */
    async detail(productId: number, now = new Date(), channel?: string): Promise<ProductView> {
      const p = await db.product.findUnique({ where: { id: productId } });
      if (!p?.active || !visibleIn(p, channel)) throw HttpError.notFound();
      return productView(p, now, bestValue(await offered(now, channel)));
    },

    /**
     * The product as it may be bought now by this user in this quantity. Runs inside the order-creating
     * transaction after the user row is locked, so two concurrent orders cannot both slip under a limit.
     */
    async purchasable(tx: Tx, userId: number, productId: number, quantity: number, now = new Date(), channel?: string): Promise<Product> {
      const p = await tx.product.findUnique({ where: { id: productId } });
      if (!p?.active) throw HttpError.notFound();
      if (!onSale(p, now, channel)) throw HttpError.badRequest(OFFER_ENDED);
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
