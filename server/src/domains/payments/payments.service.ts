import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Config } from "../../config.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { Order } from "../../db/generated/client.ts";
import { BANNED_AT_PAYMENT, orderView, paymentStatusView, type AppliedUpdate, type OrdersService, type RefundRequest } from "../orders/orders.service.ts";
import { membershipView, type MembershipsService } from "../memberships/memberships.service.ts";
import type { PaypalProvider } from "./providers/paypal.provider.ts";
import { messageHash, type JpayProvider } from "./providers/jpay.provider.ts";
import { OPEN_ORDER_STATUSES, PROVIDERS, type ProviderName } from "../../contract/orders.ts";
import { CRYPTO_BONUS_CREDITS, PAYMENT_METHODS, type PaymentMethod } from "../../contract/payments.ts";
import { InvalidNotification, ProviderUnavailable, type NotificationHeaders, type PaymentProvider, type PaymentUpdate } from "./providers/provider.ts";

export type ProviderRegistry = { [K in ProviderName]: K extends "paypal" ? PaypalProvider : K extends "jpay" ? JpayProvider : PaymentProvider };

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

export const REFUND_UNSUPPORTED = "This payment provider cannot refund this order";
/** JPay: the agent sends the TON back from the receiving wallet first, then confirms with that transfer's reference. */
export const RETURN_REFERENCE_REQUIRED = "Send the money back from the receiving wallet first, then enter the reference of that transfer";

/** A wallet transfer may be found this long after its order was opened, even once the order expired (decision 210). */
const WALLET_LOOKUP_HOURS = 24;
/** Orders one wallet sweep looks up, at most; the rest wait for the next round. */
const WALLET_SWEEP_BATCH = 100;

export interface CheckoutInput {
  userId: number;
  productId: number;
  quantity: number;
  provider: string;
  /** One of the provider's methods; the provider's own page when omitted. */
  method?: string;
  agreeTerms: boolean;
}

export function isProviderName(name: string): name is ProviderName {
  return (PROVIDERS as readonly string[]).includes(name);
}

/**
 * Taking money: opens checkouts with a provider, and turns verified provider facts (signed notifications,
 * server-side queries, captures) into order changes through the orders service. Never the browser's word.
 */
export function createPaymentsService(deps: { config: Config; log: Logger; orders: OrdersService; memberships: MembershipsService; providers: ProviderRegistry }) {
  const { config, log, orders, memberships, providers } = deps;

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
    if (result.changed && !u.reversal && o?.status === "paid" && o.failureReason === BANNED_AT_PAYMENT) return { ...result, order: await refundHeld(o) };
    if (result.changed && u.reversal && o?.status === "refunded") await stopRenewals(o);
    return result;
  }

  /**
   * A refunded plan order ended its membership (decision 219); the provider must not charge its subscription again,
   * or a renewal would be charged for a membership that no longer runs. A failure is logged: the membership is ended
   * either way, and support can cancel in the provider's dashboard.
   */
  async function stopRenewals(order: Order): Promise<void> {
    const sub = await memberships.subscriptionOf(order.id);
    const provider = sub && isProviderName(sub.provider) ? providers[sub.provider] : undefined;
    if (!sub || !provider?.cancelSubscription) return;
    try {
      await provider.cancelSubscription(sub.providerRef, order.orderNo, { now: true });
    } catch (err) {
      log.error({ err, orderNo: order.orderNo, subscription: sub.providerRef }, "refunded plan order: cancelling its subscription failed; cancel it in the provider's dashboard");
    }
  }

  async function refundHeld(order: Order): Promise<Order> {
    const provider = isProviderName(order.provider) ? providers[order.provider] : undefined;
    if (!provider?.refund || !order.providerRef) {
      log.error({ orderNo: order.orderNo }, "order paid after a ban cannot be refunded automatically; held for staff");
      return order;
    }
    try {
      await provider.refund(order.providerRef, order.orderNo, order.providerPaymentRef);
    } catch (err) {
      log.error({ err, orderNo: order.orderNo }, "refund of an order paid after a ban failed; held for staff");
      return order;
    }
    return orders.markBannedRefunded(order.id);
  }

  /** A method the provider offers here; anything else answers 'Payment function temporarily unavailable' before an order exists. */
  function usableMethod(provider: PaymentProvider, method: string | undefined): PaymentMethod {
    const wanted = method ?? "checkout";
    const offered = provider.methods().find((m) => m === wanted);
    if (!offered) throw new HttpError(503, MSG.paymentUnavailable);
    return offered;
  }

  /** Asks the provider what happened to a checkout the browser is waiting on, and applies a verified answer. */
  async function refresh(orderId: number) {
    const order = await orders.reload(orderId);
    if (!(OPEN_ORDER_STATUSES as readonly string[]).includes(order.status) || !order.providerRef || !isProviderName(order.provider)) return order;
    const provider = providers[order.provider];
    if (!provider.available()) return order;
    try {
      const update = await provider.queryPayment(order.providerRef, order.providerPaymentRef);
      if (update) return (await apply(provider.name, update)).order ?? (await orders.reload(order.id));
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      log.warn({ err, orderNo: order.orderNo }, "payment status query failed; answering the stored status");
    }
    return order;
  }

  /**
   * JPay: looks the order's transfer up on chain and applies what is found. Unlike refresh(), an order the sweep
   * expired is still looked up: TON transfers cannot be stopped, and money that arrived late is owed its credits.
   */
  async function verifyTransfer(order: Order): Promise<Order> {
    const lookable = (OPEN_ORDER_STATUSES as readonly string[]).includes(order.status) || order.status === "expired";
    if (!lookable || !order.providerRef || order.provider !== "jpay" || !providers.jpay.available()) return order;
    try {
      const update = await providers.jpay.queryPayment(order.providerRef);
      if (update) return (await apply("jpay", update)).order ?? (await orders.reload(order.id));
    } catch (err) {
      if (!(err instanceof ProviderUnavailable)) throw err;
      log.warn({ err, orderNo: order.orderNo }, "TON transfer lookup failed; answering the stored status");
    }
    return orders.reload(order.id);
  }

  return {
    /** createOrderAndPay: a pending order and the provider's checkout the browser goes to. */
    async startCheckout(input: CheckoutInput) {
      if (!input.agreeTerms) throw HttpError.badRequest(MSG.agreeTerms);
      const provider = usable(input.provider);
      const method = usableMethod(provider, input.method);
      const bonusCredits = provider.name === "usdt" ? CRYPTO_BONUS_CREDITS : 0;
      const order = await orders.createPending({ userId: input.userId, productId: input.productId, quantity: input.quantity, provider: provider.name, bonusCredits, plansOnly: method === "recurring" });
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
        return { order_id: order.id, order_no: order.orderNo, pay_url: session.payUrl, session_id: session.providerRef, order: orderView({ ...order, ...session }) };
      } catch (err) {
        await orders.markCheckoutFailed(order.id);
        if (!(err instanceof ProviderUnavailable)) throw err;
        throw new HttpError(502, provider.name === "stripe" ? MSG.stripeFailed : MSG.paymentFailed);
      }
    },

    /** The providers configured here and their methods, for the buy dialog (SPEC.md §1: each only when it works). */
    configuredProviders() {
      return PROVIDERS.filter((name) => providers[name].available()).map((name) => ({ provider: name, methods: PAYMENT_METHODS.filter((m) => providers[name].methods().includes(m)) }));
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
      const current = (update ? (await apply("paypal", update)).order : null) ?? (await orders.reload(order.id));
      if (current.status === "failed") throw new HttpError(402, MSG.paymentDeclined, paymentStatusView(current));
      return paymentStatusView(current);
    },

    /**
     * Staff refund (POST /admin/api/orders/:id/refund): claim the paid order, have the provider return the money with
     * no database transaction open, then take the credits back and audit it in one transaction (decision 113).
     */
    async refundOrder(r: RefundRequest) {
      const order = await orders.beginRefund(r);
      const provider = isProviderName(order.provider) ? providers[order.provider] : undefined;
      try {
        if (provider?.returnedByHand) {
          if (!r.returnReference?.trim()) throw HttpError.badRequest(RETURN_REFERENCE_REQUIRED);
        } else {
          if (!provider?.refund || !order.providerRef) throw HttpError.conflict(REFUND_UNSUPPORTED);
          await provider.refund(order.providerRef, order.orderNo, order.providerPaymentRef);
        }
      } catch (err) {
        await orders.abandonRefund(order.id);
        if (err instanceof ProviderUnavailable) throw new HttpError(502, MSG.paymentUnavailable);
        throw err;
      }
      const refunded = await orders.finishRefund({ ...r, returnReference: provider?.returnedByHand ? r.returnReference?.trim() : undefined });
      await stopRenewals(refunded);
      return orderView(refunded);
    },

    /** What a staff refund would take back, and, where the money goes back by hand, what staff must send (decision 220). */
    async refundPreview(orderId: number) {
      const preview = await orders.refundPreview(orderId);
      const order = await orders.reload(orderId);
      const byHand = isProviderName(order.provider) && providers[order.provider].returnedByHand;
      return { ...preview, return_by_hand: byHand ? { amount: order.receivedAmount, currency: order.receivedCurrency } : null };
    },

    /** The member cancels in the app: the provider stops renewing, what was paid runs to the period's end. */
    async cancelMembership(userId: number) {
      const m = await memberships.cancellable(userId);
      const provider = isProviderName(m.provider) ? providers[m.provider] : undefined;
      if (!provider?.cancelSubscription || !provider.available()) throw new HttpError(503, MSG.paymentUnavailable);
      try {
        await provider.cancelSubscription(m.providerRef, m.order.orderNo);
      } catch (err) {
        if (err instanceof ProviderUnavailable) throw new HttpError(502, MSG.paymentFailed);
        throw err;
      }
      await memberships.markCancelled(m.id);
      return membershipView({ ...m, status: "cancelled", cancelAtPeriodEnd: true });
    },

    /** The sweep that expires abandoned orders; main.ts runs it on a timer, tests call it directly. */
    expireAbandoned: (now?: Date) => orders.expireAbandoned(now),

    /** JPay's createOrder: the TON transfer the buyer's wallet sends for the order just opened (its providerRef). */
    walletTransfer: (providerRef: string) => providers.jpay.transferFor(providerRef),

    /**
     * POST /api/OrderJpay/orderPay: the buyer's wallet says it sent the transfer; the server looks it up on chain
     * and credits only what it finds there. The wallet's BOC is not evidence of anything and is only logged.
     */
    async walletOrderPay(orderNo: string, boc: string | undefined, ability: AppAbility) {
      const order = await orders.readableByOrderNo(orderNo, ability);
      if (order.provider !== "jpay") throw HttpError.notFound();
      // the hash of the wallet's external message finds the transfer in an explorer, should support be asked about it
      if (boc) log.info({ orderNo, messageHash: messageHash(boc) }, "wallet reports a sent transfer");
      const current = await verifyTransfer(order);
      return { ...paymentStatusView(current), received_amount: current.receivedAmount, received_currency: current.receivedCurrency };
    },

    /**
     * The sweep's JPay round (SPEC.md §9 polling on the server): a buyer who closed the app is still credited. One walk
     * of our address's transactions serves every waiting order (decision 220), not one TON API call per order.
     */
    async sweepWalletOrders(now = new Date()): Promise<number> {
      if (!providers.jpay.available()) return 0;
      const waiting = await orders.awaitingPayment("jpay", new Date(now.getTime() - WALLET_LOOKUP_HOURS * 3600_000), WALLET_SWEEP_BATCH);
      const refs = waiting.flatMap((o) => (o.providerRef ? [o.providerRef] : []));
      if (!refs.length) return 0;
      let updates;
      try {
        updates = await providers.jpay.queryPayments(refs);
      } catch (err) {
        if (!(err instanceof ProviderUnavailable)) throw err;
        log.warn({ err, orders: refs.length }, "TON transfer lookup failed; the next sweep looks again");
        return 0;
      }
      let paid = 0;
      for (const u of updates) if ((await apply("jpay", u)).order?.status === "paid") paid++;
      return paid;
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
