/** Payment providers Reverie can take money through; one adapter file each in server/src/domains/payments/providers. */
export const PROVIDERS = ["sandbox", "stripe", "paypal", "pagsmile", "usdt"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * Ways to pay inside one provider. `checkout` is the provider's own hosted page with every method it offers;
 * the others are Pagsmile's local methods (SPEC.md §1/§7) and its recurring card payment.
 */
export const PAYMENT_METHODS = ["checkout", "recurring", "sbp", "sberpay", "tpay"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** SPEC.md §9: credits added on top of a pack paid in crypto (USDT), once per paid order. */
export const CRYPTO_BONUS_CREDITS = 50;
