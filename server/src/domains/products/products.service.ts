import type { Db, Tx } from "../../db/client.ts";
import { chargeCurrency, type Currency } from "../../contract/currencies.ts";
import { OPEN_ORDER_STATUSES } from "../../contract/orders.ts";
import type { Product } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { translationsOf } from "../../http/translations.ts";
import { formatMinor } from "./money.ts";
import { bestValue, perCreditNow, priceIn, priceNow, pricesOf, saleRunning, shownCurrency } from "./products.pricing.ts";

export const OFFER_ENDED = "This offer has ended";
export const PURCHASE_LIMIT_REACHED = "You have reached the purchase limit for this offer";
/** `{{currency}}`: the currencies the chosen payment method charges in (docs/decisions/300). */
export const NO_PRICE_IN_CURRENCY = "This product cannot be paid in {{currency}}; please choose another payment method";

/** Orders that count toward a per-user limit: paid ones and ones still being paid. */
const COUNTED_STATUSES = [...OPEN_ORDER_STATUSES, "paid"] as const;

/** One price as the client shows it: integers in minor units of `currency`, `*_text` English renderings. */
function priceView(p: Product, currency: Currency, now: Date, best: ReadonlyMap<Currency, number>) {
  const running = saleRunning(p, now);
  const price = priceNow(p, currency, now) ?? 0;
  const regular = priceIn(p, currency)?.priceMinor ?? price;
  return {
    price,
    was_price: running ? regular : null,
    currency,
    price_text: formatMinor(price, currency),
    was_price_text: running ? formatMinor(regular, currency) : null,
    per_credit: perCreditNow(p, currency, now) ?? null,
    best_value: best.get(currency) === p.id,
  };
}

/**
 * What the client shows for a product, priced in the visitor's currency where it has a price in it (else the base
 * currency; docs/decisions/300), with every price it has in `prices` (the buy dialog shows the one the chosen provider
 * charges). `price` is what it costs now; `was_price` is its regular price, shown only while a sale runs
 * (docs/decisions/266). `best_value` and `per_credit` are each price's own (decision 380). `sale_starts_at` tells a visitor's app which sales
 * it has shown already.
 */
export function productView(p: Product, now = new Date(), best: ReadonlyMap<Currency, number> = new Map(), visitorCurrency?: string) {
  const running = saleRunning(p, now);
  const currency = shownCurrency(p, visitorCurrency);
  const endsAt = running ? p.saleEndsAt : null;
  return {
    product_id: p.id,
    code: p.code,
    name: p.name,
    names: translationsOf(p.names),
    kind: p.kind,
    credits: p.credits,
    bonus_credits: p.bonusCredits,
    ...priceView(p, currency, now, best),
    prices: pricesOf(p).map((e) => priceView(p, e.currency, now, best)),
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

/** One purchase as the order asks for it, with the visitor's currency and those the chosen provider charges in. */
export interface Purchase {
  userId: number;
  productId: number;
  quantity: number;
  currency?: Currency;
  accepted: readonly Currency[];
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

  const views = (rows: Product[], now: Date, currency: string | undefined, all: Product[] = rows) => {
    const best = bestValue(all, now);
    return rows.map((p) => productView(p, now, best, currency));
  };

  /** Limited offers: a sale running now, or a per-user limit. */
  const limited = (rows: Product[], now: Date) => rows.filter((p) => saleRunning(p, now) || p.perUserLimit !== null);

  return {
    /** Credit packs and plans on sale in the caller's channel (sales at their sale price while they run), in the visitor's currency. */
    async list(now = new Date(), channel?: string, currency?: string): Promise<ProductView[]> {
      return views(await offered(now, channel), now, currency);
    },

    /** Limited offers (sales, per-user limits) running now, with their countdown. */
    async listLimited(now = new Date(), channel?: string, currency?: string): Promise<ProductView[]> {
      const all = await offered(now, channel);
      return views(limited(all, now), now, currency, all);
    },

    /** Limited offers this user can still buy, with how many remain for them. */
    async listLimitedForUser(userId: number, now = new Date(), channel?: string, currency?: string) {
      const all = await offered(now, channel);
      const offers = limited(all, now);
      const bought = await purchasedCounts(
        userId,
        offers.map((p) => p.id),
      );
      return views(offers, now, currency, all)
        .map((v, i) => {
          const cap = offers[i].perUserLimit;
          return { ...v, remaining: cap === null ? null : Math.max(0, cap - (bought.get(v.product_id) ?? 0)) };
        })
        .filter((p) => p.remaining === null || p.remaining > 0);
    },

    /** One product as the caller's channel lists it: another channel's product is not found, "best value" is this channel's. */
    async detail(productId: number, now = new Date(), channel?: string, currency?: string): Promise<ProductView> {
      const p = await db.product.findUnique({ where: { id: productId } });
      if (!p?.active || !visibleIn(p, channel)) throw HttpError.notFound();
      return productView(p, now, bestValue(await offered(now, channel), now), currency);
    },

    /**
     * The product as it may be bought now by this user in this quantity, with its regular price and its price now in
     * the currency the checkout charges in. Runs inside the order-creating transaction after the user row is locked,
     * so two concurrent orders cannot both slip under a limit.
     */
    async purchasable(tx: Tx, want: Purchase, now = new Date(), channel?: string) {
      const { userId, quantity } = want;
      const p = await tx.product.findUnique({ where: { id: want.productId } });
      if (!p?.active) throw HttpError.notFound();
      if (!onSale(p, now, channel)) throw HttpError.badRequest(OFFER_ENDED);
      const currency = chargeCurrency(
        want.currency,
        want.accepted,
        pricesOf(p).map((e) => e.currency),
      );
      const price = currency && priceIn(p, currency);
      if (!price) throw HttpError.badRequest(NO_PRICE_IN_CURRENCY.replace("{{currency}}", want.accepted.join(", ")));
      if (p.kind === "subscription" && quantity !== 1) throw HttpError.badRequest(MSG.badRequest);
      if (p.perUserLimit !== null) {
        const bought = (await purchasedCounts(userId, [p.id], tx)).get(p.id) ?? 0;
        if (bought + quantity > p.perUserLimit) throw HttpError.conflict(PURCHASE_LIMIT_REACHED);
      }
      return { product: p, currency: price.currency, regularMinor: price.priceMinor, nowMinor: priceNow(p, price.currency, now) ?? price.priceMinor };
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
