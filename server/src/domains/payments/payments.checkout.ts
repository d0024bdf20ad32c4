import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { Currency } from "../../contract/currencies.ts";
import { PROVIDERS, type ProviderName } from "../../contract/orders.ts";
import { CRYPTO_BONUS_CREDITS, PAYMENT_METHODS, type PaymentMethod } from "../../contract/payments.ts";
import { orderView, type OrdersService } from "../orders/orders.service.ts";
import { usableProvider, type ProviderRegistry } from "./payments.providers.ts";
import { ProviderUnavailable, type PaymentProvider } from "./providers/provider.ts";

/** SPEC.md §2 routes the browser comes back to after paying. */
const CALLBACK_ROUTE: Record<ProviderName, string> = {
  sandbox: "/hcpayPayCallback",
  stripe: "/hcpayPayCallback",
  paypal: "/paypalCallback",
  pagsmile: "/pagsmileCallback",
  usdt: "/usdtCallback",
  jpay: "/hcpayPayCallback",
};

function callbackRoute(provider: ProviderName, method: PaymentMethod): string {
  return provider === "pagsmile" && method === "tpay" ? "/tpayCallback" : CALLBACK_ROUTE[provider];
}

/** Where each provider posts its notifications; Pagsmile's is the SPEC.md §7 pagsmileNotify call. */
function notifyPath(provider: ProviderName): string {
  return provider === "pagsmile" ? "/api/order/pagsmileNotify" : `/api/pay/webhook/${provider}`;
}

/** A method the provider offers here; anything else answers 'Payment function temporarily unavailable' before an order exists. */
function usableMethod(provider: PaymentProvider, method: string | undefined): PaymentMethod {
  const wanted = method ?? "checkout";
  const offered = provider.methods().find((m) => m === wanted);
  if (!offered) throw new HttpError(503, MSG.paymentUnavailable);
  return offered;
}

export interface CheckoutInput {
  userId: number;
  productId: number;
  quantity: number;
  provider: string;
  /** One of the provider's methods; the provider's own page when omitted. */
  method?: string;
  /** The visitor's currency; the provider's own is charged where it does not accept it (docs/decisions/300). */
  currency?: Currency;
  agreeTerms: boolean;
}

/** Opening a checkout: the providers the buyer may choose, and a pending order with the provider's page to pay it on. */
export function createCheckouts(deps: { config: Config; orders: OrdersService; providers: ProviderRegistry; termsInForce: () => Promise<number | null> }) {
  const { config, orders, providers } = deps;

  return {
    /** createOrderAndPay: a pending order and the provider's checkout the browser goes to. */
    async startCheckout(input: CheckoutInput) {
      if (!input.agreeTerms) throw HttpError.badRequest(MSG.agreeTerms);
      const provider = usableProvider(providers, input.provider);
      const method = usableMethod(provider, input.method);
      const bonusCredits = provider.name === "usdt" ? CRYPTO_BONUS_CREDITS : 0;
      const order = await orders.createPending({
        currency: input.currency,
        accepted: provider.currencies(),
        userId: input.userId,
        productId: input.productId,
        quantity: input.quantity,
        provider: provider.name,
        bonusCredits,
        plansOnly: method === "recurring",
        // the terms the buyer just agreed to are the version in force now; the order keeps its number (decision 282)
        termsVersion: await deps.termsInForce(),
      });
      // A plan renews where the provider can charge it again (Stripe, PayPal; Pagsmile's recurring method); elsewhere it is one period.
      const plan = order.product.kind === "subscription" && order.product.intervalDays && provider.renews?.(method);
      const back = `${config.publicUrl}${callbackRoute(provider.name, method)}?order_id=${order.id}`;
      try {
        const session = await provider.createCheckout({
          orderNo: order.orderNo,
          amountMinor: order.finalPriceMinor,
          unitAmountMinor: order.finalPriceMinor / order.quantity,
          quantity: order.quantity,
          currency: order.currency,
          description: order.product.name,
          returnUrl: back,
          cancelUrl: `${back}&cancelled=1`,
          expiresAt: order.expiresAt,
          method,
          buyerId: String(order.userId),
          notifyUrl: `${config.publicUrl}${notifyPath(provider.name)}`,
          renewEveryDays: plan ? (order.product.intervalDays ?? undefined) : undefined,
        });
        await orders.attachCheckout(order.id, session.providerRef, session.payUrl);
        return {
          order_id: order.id,
          order_no: order.orderNo,
          pay_url: session.payUrl,
          session_id: session.providerRef,
          order: orderView({ ...order, ...session }),
        };
      } catch (err) {
        await orders.markCheckoutFailed(order.id);
        if (!(err instanceof ProviderUnavailable)) throw err;
        throw new HttpError(502, provider.name === "stripe" ? MSG.stripeFailed : MSG.paymentFailed);
      }
    },

    /** The providers configured here and their methods, for the buy dialog (SPEC.md §1: each only when it works). */
    configuredProviders() {
      return PROVIDERS.filter((name) => providers[name].available()).map((name) => ({
        provider: name,
        methods: PAYMENT_METHODS.filter((m) => providers[name].methods().includes(m)),
        currencies: [...providers[name].currencies()],
      }));
    },
  };
}
