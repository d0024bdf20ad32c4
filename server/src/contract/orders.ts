/** Order and payment words shared by the server and the browser apps. Import-free (docs/decisions/050). */

/** Order statuses as Prisma names them; equals Prisma's OrderStatus enum (the database stores threeDsPending as "3ds_pending"). */
export const ORDER_STATUSES = ["pending", "threeDsPending", "paid", "failed", "expired", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Orders still waiting for the provider's word. */
export const OPEN_ORDER_STATUSES = ["pending", "threeDsPending"] as const satisfies readonly OrderStatus[];

/** The payment providers the server has, one file each under domains/payments/providers. */
export const PROVIDERS = ["sandbox", "stripe", "paypal", "pagsmile", "usdt", "jpay"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Equals Prisma's ProductKind enum. */
export const PRODUCT_KINDS = ["credits", "flash_sale", "subscription"] as const;
export type ProductKind = (typeof PRODUCT_KINDS)[number];
