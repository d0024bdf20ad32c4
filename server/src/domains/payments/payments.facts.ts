import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Order } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { OPEN_ORDER_STATUSES, type ProviderName } from "../../contract/orders.ts";
import { BANNED_AT_PAYMENT, paymentStatusView, type AppliedUpdate, type OrdersService } from "../orders/orders.service.ts";
import { isProviderName, providerNamed, usableProvider, type ProviderRegistry } from "./payments.providers.ts";
import type { PaymentMetrics } from "../../metrics/metrics.ts";
import type { NotificationOutcome } from "../../contract/metrics.ts";
import { InvalidNotification, ProviderUnavailable, type NotificationHeaders, type PaymentUpdate } from "./providers/provider.ts";

/**
 * Verified provider facts (signed notifications, server-side queries, captures) turned into order changes through
 * the orders service. Never the browser's word.
 */
export function createProviderFacts(deps: {
  log: Logger;
  orders: OrdersService;
  providers: ProviderRegistry;
  stopRenewals: (order: Order) => Promise<void>;
  notifications: PaymentMetrics;
}) {
  const { log, orders, providers, stopRenewals } = deps;

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

  async function refundHeld(order: Order): Promise<Order> {
    const provider = providerNamed(providers, order.provider);
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

  /** A provider's notification verified and applied; refused (400) when it is not genuine. */
  async function receive(
    providerName: ProviderName,
    rawBody: Buffer | undefined,
    headers: NotificationHeaders,
  ): Promise<{ received: true; duplicate: boolean }> {
    const provider = usableProvider(providers, providerName);
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
  }

  return {
    apply,

    /** POST /api/pay/webhook/:provider. Genuine notifications are stored once and applied once; anything else is 400. */
    async handleNotification(providerName: string, rawBody: Buffer | undefined, headers: NotificationHeaders): Promise<{ received: true; duplicate: boolean }> {
      if (!isProviderName(providerName)) throw HttpError.notFound();
      try {
        const result = await receive(providerName, rawBody, headers);
        deps.notifications.notification(providerName, result.duplicate ? "duplicate" : "applied");
        return result;
      } catch (err) {
        deps.notifications.notification(providerName, outcomeOf(err));
        throw err;
      }
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
  };
}

/** A refused notification's outcome: not genuine (4xx), the provider's API down (503), or our failure. */
function outcomeOf(err: unknown): NotificationOutcome {
  if (!(err instanceof HttpError)) return "failed";
  if (err.status === 503) return "unavailable";
  return err.status < 500 ? "refused" : "failed";
}
