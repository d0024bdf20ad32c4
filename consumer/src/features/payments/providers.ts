import type { Currency } from "../../../../server/src/contract/currencies.ts";
import type { ProviderName } from "../../../../server/src/contract/orders.ts";
import type { PaymentMethod } from "../../../../server/src/contract/payments.ts";

/** One way to pay in the buy-credits dialog: a provider configured on the server, one of its methods, what it charges in. */
export interface PaymentOption {
  provider: ProviderName;
  method: PaymentMethod;
  currencies: Currency[];
}

/** The SPEC.md §2 route each provider returns to. */

export const PAYMENT_CALLBACK_ROUTES = ["hcpayPayCallback", "paypalCallback", "usdtCallback", "pagsmileCallback", "tpayCallback"] as const;

const CALLBACK_BY_PROVIDER: Record<string, (typeof PAYMENT_CALLBACK_ROUTES)[number]> = {
  paypal: "paypalCallback",
  usdt: "usdtCallback",
  pagsmile: "pagsmileCallback",
  tpay: "tpayCallback",
};

/** Card checkouts (sandbox, Stripe, HC Pay) share the card result route. */
export function callbackPathFor(provider: string): string {
  return `/${CALLBACK_BY_PROVIDER[provider] ?? "hcpayPayCallback"}`;
}

/** Which provider a callback route belongs to, when the stored verification state is gone. */
export function providerOfCallbackPath(pathname: string): string {
  const route = pathname.replace(/^\//, "").toLowerCase();
  const hit = Object.entries(CALLBACK_BY_PROVIDER).find(([, r]) => r.toLowerCase() === route);
  return hit ? hit[0] : "sandbox";
}
