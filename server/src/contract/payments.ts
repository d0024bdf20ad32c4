/** Payment words beyond the providers (contract/orders.ts): methods inside a provider, and the crypto bonus. */

/**
 * Ways to pay inside one provider. `checkout` is the provider's own hosted page with every method it offers;
 * the others are Pagsmile's local methods (SPEC.md §1/§7) and its recurring card payment.
 */
export const PAYMENT_METHODS = ["checkout", "recurring", "sbp", "sberpay", "tpay"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Pagsmile's local methods, each offered only with a method code from the merchant account (PAGSMILE_METHOD_CODES). */
export const PAGSMILE_LOCAL_METHODS = ["sbp", "sberpay", "tpay"] as const satisfies readonly PaymentMethod[];

/** SPEC.md §9: credits added on top of a pack paid in crypto (USDT), once per paid order. */
export const CRYPTO_BONUS_CREDITS = 50;
