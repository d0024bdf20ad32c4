import type { Db, Tx } from "../../db/client.ts";
import type { Product } from "../../db/generated/client.ts";
import { matching, type ListParams } from "../../db/paging.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import { auditedTable, byId } from "../audit/audited-table.ts";
import type { ProductBody, ProductFilter } from "./products.admin.schema.ts";
import { bestValue, packsBeatingSale, pricesOf, saleRunning } from "./products.pricing.ts";
import { lockCatalogueImport } from "./products.queries.ts";

export const SALE_WINDOW_INCOMPLETE = "A sale needs a sale price, a start and an end";
export const SALE_ENDS_BEFORE_START = "A sale must end after it starts";
export const SALE_NOT_BELOW_PRICE = "The sale price must be below the regular price";
export const SALE_IN_EVERY_CURRENCY = "A sale needs a sale price in each currency the product is priced in";
export const PLAN_NEEDS_INTERVAL = "A plan needs its renewal interval in days";
/** `{packs}`: the codes of the packs that give more credits for the money. */
export const SALE_NOT_A_DEAL = "This sale is no deal: a regular pack costs the same or less per credit";
/** Followed by the codes of the products whose sale, running or to come, the pack would beat per credit. */
export const PRICE_UNDERCUTS_SALE = "At this price a sale would be no deal: this pack would cost the same or less per credit";

/**
 * Marketing's catalogue of credit packs, plans and sales (issue 35 item 1): every change audited in its own
 * transaction, effective at the next checkout (orders keep the name and price they were made at). A sale is a window
 * on a product (docs/decisions/266); a sale that a regular pack beats per credit is refused, so no deal is a false one.
 */
const codes = (products: { code: string }[]) => products.map((p) => p.code).join(", ");

export function createProductsAdminService(db: Db, audit: AuditService) {
  const table = auditedTable(db, audit, { resource: "Product", table: (c) => c.product, key: byId, idOf: (r) => r.id });

  async function withComputed(rows: Product[], now = new Date()) {
    const best = [...bestValue(await db.product.findMany({ where: { active: true } }), now)];
    return rows.map((p) => ({
      ...p,
      prices: pricesOf(p),
      bestValueIn: best.filter(([, id]) => id === p.id).map(([currency]) => currency),
      saleRunning: saleRunning(p, now),
    }));
  }
  const one = async (row: Product | null) => (row ? (await withComputed([row]))[0] : null);

  /** The rules a saved product must keep, checked on the product as it will be after the change (in `c`: an import's transaction). */
  async function check(p: ProductBody & { id?: number }, c: Db | Tx = db) {
    const onSale = p.prices.filter((e) => e.salePriceMinor !== null);
    const sale = [onSale.length > 0 || null, p.saleStartsAt, p.saleEndsAt];
    if (sale.some((v) => v !== null) && sale.some((v) => v === null)) throw HttpError.badRequest(SALE_WINDOW_INCOMPLETE);
    // a sale runs in every currency the product is sold in, or a visitor paying in one would be charged the regular price
    if (onSale.length && onSale.length < p.prices.length) throw HttpError.badRequest(SALE_IN_EVERY_CURRENCY);
    if (p.saleStartsAt && p.saleEndsAt && p.saleEndsAt <= p.saleStartsAt) throw HttpError.badRequest(SALE_ENDS_BEFORE_START);
    if (onSale.some((e) => (e.salePriceMinor ?? 0) >= e.priceMinor)) throw HttpError.badRequest(SALE_NOT_BELOW_PRICE);
    if (p.kind === "subscription" && p.intervalDays === null) throw HttpError.badRequest(PLAN_NEEDS_INTERVAL);
    if (!p.active) return;
    // prices compare within a currency only (products.pricing)
    const others = await c.product.findMany({ where: { active: true, ...(p.id ? { id: { not: p.id } } : {}) } });
    const beaten = packsBeatingSale(p, others);
    if (beaten.length) throw HttpError.badRequest(`${SALE_NOT_A_DEAL} (${codes(beaten)})`);
    // the same rule from the pack's side: a new pack or a lower price must not turn a sale running or to come into no deal
    const now = new Date();
    const undercut = others.filter((s) => s.saleEndsAt !== null && s.saleEndsAt > now && packsBeatingSale(s, [{ ...p, id: p.id ?? 0 }]).length);
    if (undercut.length) throw HttpError.badRequest(`${PRICE_UNDERCUTS_SALE} (${codes(undercut)})`);
  }

  /** The products of these codes, by code: a spreadsheet row of a known code changes it, another code is new. */
  async function idsByCode(codes: string[], c: Db | Tx = db): Promise<Map<string, number>> {
    const rows = await c.product.findMany({ where: { code: { in: codes } }, select: { id: true, code: true } });
    return new Map(rows.map((r) => [r.code, r.id]));
  }

  return {
    async list(params: ListParams<ProductFilter>) {
      const f = params.filter;
      const page = await table.list(params, { ...matching(f, ["kind", "active"]), ...(f.q ? { name: { contains: f.q, mode: "insensitive" } } : {}) });
      return { ...page, rows: await withComputed(page.rows as Product[]) };
    },
    get: async (id: number) => one(await table.get(id)),
    async create(staffId: number, body: ProductBody) {
      await check(body);
      return one(await table.create(staffId, body));
    },
    async update(staffId: number, id: number, body: Partial<ProductBody>) {
      const before = await db.product.findUnique({ where: { id } });
      if (!before) return null;
      const { createdAt: _c, ...current } = before;
      await check({ ...current, names: {}, prices: pricesOf(current), ...body, id } as ProductBody & { id: number });
      return one(await table.update(staffId, id, body));
    },

    idsByCode,
    /** What the console's form would be refused for, were it saved as `body` (the product `id`, or a new one); null when nothing. */
    async problemOf(body: ProductBody, id?: number): Promise<string | null> {
      try {
        await check({ ...body, id });
        return null;
      } catch (e) {
        if (e instanceof HttpError) return e.message;
        throw e;
      }
    },
    /** A spreadsheet row saved in the import's transaction: the product of its code changed as a whole, or created; audited like the form's. */
    async saveInImport(staffId: number, body: ProductBody, tx: Tx): Promise<"created" | "updated" | "unchanged"> {
      await lockCatalogueImport.rows(tx, {});
      const before = await tx.product.findUnique({ where: { code: body.code } });
      // the same sheet applied again changes nothing and leaves no second audit row
      if (before && Object.entries(body).every(([k, v]) => JSON.stringify(before[k as keyof Product]) === JSON.stringify(v))) return "unchanged";
      await check({ ...body, id: before?.id }, tx);
      if (before) await table.update(staffId, before.id, body, tx);
      else await table.create(staffId, body, tx);
      return before ? "updated" : "created";
    },
  };
}

export type ProductsAdminService = ReturnType<typeof createProductsAdminService>;
