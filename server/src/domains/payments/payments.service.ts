import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { Order } from "../../db/generated/client.ts";
import { BANNED_AT_PAYMENT, orderView, paymentStatusView, type AppliedUpdate, type OrdersService } from "../orders/orders.service.ts";
import type { PaypalProvider } from "./providers/paypal.provider.ts";
import { OPEN_ORDER_STATUSES, PROVIDERS, type ProviderName } from "../../contract/orders.ts";
import { InvalidNotification, ProviderUnavailable, type NotificationHeaders, type PaymentProvider, type PaymentUpdate } from "./providers/provider.ts";

export type ProviderRegistry = { [K in ProviderName]: K extends "paypal" ? PaypalProvider : PaymentProvider };

/** SPEC.md §2 routes the browser comes back to after paying. */
const CALLBACK_ROUTE: Record<ProviderName, string> = { sandbox: "/hcpayPayCallback", stripe: "/hcpayPayCallback", paypal: "/paypalCallback" };

export const REFUND_UNSUPPORTED = "This payment provider cannot refund this order";

export interface CheckoutInput {
  userId: number;
  productId: number;
  quantity: number;
  provider: string;
  agreeTerms: boolean;
}

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * Taking money: opens checkouts with a provider, and turns verified provider facts (signed notifications,
 * server-side queries, captures) into order changes through the orders service. Never the browser's word.
 */
export function createPaymentsService(deps: { config: Config; log: Logger; orders: OrdersService; providers: ProviderRegistry }) {
  const { config, log, orders, providers } = deps;

  function usable(name: string): PaymentProvider {
    const provider = isProviderName(name) ? providers[name] : undefined;
    if (!provider?.available()) throw new HttpError(503, MSG.paymentUnavailable);
    return provider;
  }

  /**
   * Applies a verified provider update. An order that it finds paid after its account was banned was credited to
   * nobody; its money goes back through the provider at once. A provider that cannot refund (or fails to) leaves it
   * held — paid, uncredited, `account_banned` — for staff to refund from the console (docs/decisions/075).
   */
  async function apply(providerName: ProviderName, u: PaymentUpdate): Promise<AppliedUpdate> {
    const result = await orders.applyUpdate(providerName, u);
    const o = result.order;
    if (result.changed && o?.status === "paid" && o.failureReason === BANNED_AT_PAYMENT) return { ...result, order: await refundHeld(o) };
    return result;
  }

  async function refundHeld(order: Order): Promise<Order> {
    const provider = isProviderName(order.provider) ? providers[order.provider] : undefined;
    if (!provider?.refund || !order.providerRef) {
      log.error({ orderNo: order.orderNo }, "order paid after a ban cannot be refunded automatically; held for staff");
      return order;
    }
    try {
      await provider.refund(order.providerRef);
    } catch (err) {
      log.error({ err, orderNo: order.orderNo }, "refund of an order paid after a ban failed; held for staff");
      return order;
    }
    return orders.markBannedRefunded(order.id);
  }

  /** Asks the provider what happened to a checkout the browser is waiting on, and applies a verified answer. */
  async function refresh(orderId: number) {
    const order = await orders.reload(orderId);
    if (!(OPEN_ORDER_STATUSES as readonly string[]).includes(order.status) || !order.providerRef || !isProviderName(order.provider)) return order;
    const provider = providers[order.provider];
    if (!provider.available()) return order;
    try {
      const update = await provider.queryPayment(order.providerRef);
      if (update) return (await apply(provider.name, update)).order ?? order;
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      log.warn({ err, orderNo: order.orderNo }, "payment status query failed; answering the stored status");
    }
    return order;
  }

  return {
    /** createOrderAndPay: a pending order and the provider's checkout the browser goes to. */
    async startCheckout(input: CheckoutInput) {
      if (!input.agreeTerms) throw HttpError.badRequest(MSG.agreeTerms);
      const provider = usable(input.provider);
      const order = await orders.createPending({ userId: input.userId, productId: input.productId, quantity: input.quantity, provider: provider.name });
      const back = `${config.publicUrl}${CALLBACK_ROUTE[provider.name]}?order_id=${order.id}`;
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
        });
        await orders.attachCheckout(order.id, session.providerRef, session.payUrl);
        return { order_id: order.id, order_no: order.orderNo, pay_url: session.payUrl, session_id: session.providerRef, order: orderView({ ...order, ...session }) };
      } catch (err) {
        await orders.markCheckoutFailed(order.id);
        if (!(err instanceof ProviderUnavailable)) throw err;
        throw new HttpError(502, provider.name === "stripe" ? MSG.stripeFailed : MSG.paymentFailed);
      }
    },

    /** POST /api/pay/webhook/:provider. Genuine notifications are stored once and applied once; anything else is 400. */
    async handleNotification(providerName: string, rawBody: Buffer | undefined, headers: NotificationHeaders): Promise<{ received: true; duplicate: boolean }> {
      if (!isProviderName(providerName)) throw HttpError.notFound();
      const provider = usable(providerName);
      if (!rawBody?.length) throw HttpError.badRequest("Missing notification body");
      let update;
      try {
        update = await provider.parseNotification(rawBody, headers);
      } catch (err) {
        if (err instanceof InvalidNotification) {
          log.warn({ provider: providerName, why: err.message }, "payment notification refused");
          throw HttpError.badRequest("Invalid notification signature");
        }
        // The provider's verification API is down: 503 makes the provider deliver again later.
        if (err instanceof ProviderUnavailable) throw new HttpError(503, MSG.paymentUnavailable);
        throw err;
      }
      const result = await apply(provider.name, update);
      // A genuine event that settles nothing (PayPal: the buyer approved) is the moment to ask the provider.
      if (!result.duplicate && !update.outcome && result.order) await refresh(result.order.id);
      return { received: true, duplicate: result.duplicate };
    },

    /** queryPayment: what the polling browser sees, after asking the provider when the order is still open. */
    async queryPayment(orderId: number, ability: AppAbility) {
      const order = await orders.readable(orderId, ability);
      return paymentStatusView(await refresh(order.id));
    },

    /** PayPal: the buyer approved on PayPal and came back; capture the money (PayPal-Request-Id makes retries safe). */
    async capturePaypalOrder(paypalOrderId: string, clientMetadataId: string | undefined, ability: AppAbility) {
      const order = await orders.readableByProviderRef("paypal", paypalOrderId, ability);
      const paypal = providers.paypal;
      if (!paypal.available()) throw new HttpError(503, MSG.paymentUnavailable);
      let update;
      try {
        update = await paypal.capture(paypalOrderId, clientMetadataId);
      } catch (err) {
        if (err instanceof ProviderUnavailable) throw new HttpError(502, MSG.paymentFailed);
        throw err;
      }
      const current = update ? ((await apply("paypal", update)).order ?? order) : await orders.reload(order.id);
      if (current.status === "failed") throw new HttpError(402, MSG.paymentDeclined, paymentStatusView(current));
      return paymentStatusView(current);
    },

    /** Staff refund (the console calls this): the provider returns the money and the order's credits are taken back together. */
    async refundOrder(r: { orderId: number; staffId: number; reason: string }) {
      const refunded = await orders.refund(r, async (order) => {
        const provider = isProviderName(order.provider) ? providers[order.provider] : undefined;
        if (!provider?.refund || !order.providerRef) throw HttpError.conflict(REFUND_UNSUPPORTED);
        try {
          await provider.refund(order.providerRef);
        } catch (err) {
          if (err instanceof ProviderUnavailable) throw new HttpError(502, MSG.paymentUnavailable);
          throw err;
        }
      });
      return orderView(refunded);
    },

    /** The sweep that expires abandoned orders; main.ts runs it on a timer, tests call it directly. */
    expireAbandoned: (now?: Date) => orders.expireAbandoned(now),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
