import { CURRENCY_OF_LANGUAGE, type Currency, chargeCurrency, exponent } from "../../../../server/src/contract/currencies.ts";
import type { Language } from "../../../../server/src/contract/locales.ts";
import i18n from "../../i18n/index.ts";
import { api, type ApiData } from "../../lib/api-client.ts";
import type { PaymentOption } from "./providers.ts";

/** Issue 3's product, order and payment calls (SPEC.md §7 "Products", "Orders and payment"). Prices are minor units. */
export type Product = ApiData<"/api/index/getProducts", "get">["list"][number];

/** Typed here so that a language without its currency fails to compile. */
const currencyOf: Record<Language, Currency> = CURRENCY_OF_LANGUAGE;

/** The currency prices are shown in: the one of the language the app speaks (docs/decisions/300). */
export function visitorCurrency(): Currency {
  return currencyOf[i18n.language as Language] ?? currencyOf.en;
}

/** Products priced in the visitor's currency where they have a price in it, else in dollars. */
export async function getProducts(): Promise<Product[]> {
  return (await api.get("/api/index/getProducts", { query: { currency: visitorCurrency() }, quiet: true })).list;
}

export async function getLimitedProducts(): Promise<Product[]> {
  return (await api.get("/api/index/getProductsLimited", { query: { currency: visitorCurrency() }, quiet: true })).list;
}

/**
 * The product that gives a credit for least now (decision 380), among those the shop shows in the visitor's currency
 * (else in the currency it shows them in): the server's `per_credit`, which leaves out offers limited per person, so
 * this is the product badged "best value" there. `packsOnly`: one-time packs alone (the checkout never preselects a
 * plan, which renews). A tie keeps the one listed first, as the badge does.
 */
export function cheapestPerCredit(products: Product[], currency: string, o: { packsOnly?: boolean } = {}): Product | undefined {
  const counted = products.filter((p) => p.per_credit !== null && (!o.packsOnly || p.kind === "credits"));
  const shown = counted.some((p) => p.currency === currency) ? currency : counted[0]?.currency;
  return counted.filter((p) => p.currency === shown).reduce<Product | undefined>((a, b) => (a && a.per_credit! <= b.per_credit! ? a : b), undefined);
}

/**
 * The price the chosen way to pay charges for a product, as the server will (contract/currencies chargeCurrency):
 * undefined when the product is not sold through it.
 */
export function priceThrough(product: Product, option: PaymentOption | undefined): Product["prices"][number] | undefined {
  if (!option) return product;
  const currency = chargeCurrency(
    visitorCurrency(),
    option.currencies,
    product.prices.map((p) => p.currency),
  );
  return product.prices.find((p) => p.currency === currency);
}

export type CreatedOrder = ApiData<"/api/order/createOrderAndPay", "post">;

/** Every provider the server has configured, one option per method it offers (SPEC.md §1: only what works here). */
export async function getPaymentOptions(): Promise<PaymentOption[]> {
  const list = await api.get("/api/order/paymentProviders", { quiet: true });
  return list.flatMap((p) => p.methods.map((method) => ({ provider: p.provider, method, currencies: p.currencies })));
}

export function createOrderAndPay(input: {
  product_id: number;
  provider: string;
  method?: string;
  agree_terms: boolean;
  quantity?: number;
}): Promise<CreatedOrder> {
  return api.post("/api/order/createOrderAndPay", { ...input, currency: visitorCurrency() }, { quiet: true });
}

/** One of the caller's orders: the result page reads which product a failed payment was for, to retry that one. */
export async function getOrder(orderId: number | string): Promise<ApiData<"/api/Order/getOrderInfo", "get">> {
  return api.get("/api/Order/getOrderInfo", { query: { order_id: Number(orderId) }, quiet: true });
}

export async function queryPayment(orderId: number | string): Promise<string> {
  return (await api.post("/api/order/queryPayment", { order_id: Number(orderId) }, { quiet: true })).order_status;
}

/** PayPal's fraud tooling ties the capture to this browser session (the client metadata header). */
const paypalClientMetadataId = crypto.randomUUID().replace(/-/g, "");

/** PayPal returns the buyer with its own order token; capturing it is what moves the money (issue 3). */
export function capturePaypalOrder(paypalToken: string): Promise<unknown> {
  return api.post(
    "/api/order/capturePaypalOrder",
    { session_id: paypalToken },
    { quiet: true, headers: { "PayPal-Client-Metadata-Id": paypalClientMetadataId } },
  );
}

/** The member's plan (GET /api/membership/current). */
export type Membership = NonNullable<ApiData<"/api/membership/current", "get">["membership"]>;

export async function currentMembership(): Promise<Membership | null> {
  return (await api.get("/api/membership/current", { quiet: true })).membership;
}

export async function cancelMembership(): Promise<unknown> {
  return (await api.post("/api/membership/cancel", {}, { quiet: true })).membership;
}

export async function resumeMembership(): Promise<unknown> {
  return (await api.post("/api/membership/resume", {}, { quiet: true })).membership;
}

/** Minor units as the reader's language writes the currency: cents, or whole yen and won. */
export function formatPrice(minor: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(minor / 10 ** exponent(currency));
}
