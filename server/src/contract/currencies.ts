/** The currencies a product may be priced in, shared by the server and the browser apps. Import-free (docs/decisions/050). */

/**
 * ISO 4217 codes: US dollars (the catalogue's own, every product has a USD price), euros, and the currencies of the
 * app's other languages. Providers charge in some of them (each adapter's `currencies`, docs/decisions/300).
 */
export const CURRENCIES = ["USD", "EUR", "RUB", "JPY", "KRW"] as const;
export type Currency = (typeof CURRENCIES)[number];
/** Every product has a price in it; a visitor whose currency a product lacks sees this one. */
export const BASE_CURRENCY: Currency = "USD";

/**
 * The currency a visitor is shown prices in, by the language the app speaks to them (docs/decisions/300); one for each
 * of locales.ts LANGUAGES (the consumer's payments.api holds it to that list).
 */
export const CURRENCY_OF_LANGUAGE = { en: "USD", ja: "JPY", ko: "KRW", ru: "RUB" } as const satisfies Record<string, Currency>;

/** Currencies whose minor unit is the major unit (ISO 4217 exponent 0); the others have cents. */
const ZERO_DECIMAL: ReadonlySet<string> = new Set<Currency>(["JPY", "KRW"]);

export function exponent(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/**
 * The currency a checkout charges in, among those the provider accepts and the product is priced in: the visitor's
 * own, else the base currency, else the provider's first; undefined when they share none (the product is not sold
 * through that provider). The buy dialog shows, and the server charges, the product's price in this one.
 */
export function chargeCurrency(visitor: string | undefined, accepted: readonly Currency[], priced: readonly Currency[]): Currency | undefined {
  const both = accepted.filter((c) => priced.includes(c));
  return both.find((c) => c === visitor) ?? both.find((c) => c === BASE_CURRENCY) ?? both[0];
}
