import type { Logger } from "pino";
import type { AppAbility } from "../../authz/abilities.ts";
import type { Order } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { OPEN_ORDER_STATUSES, type ProviderName } from "../../contract/orders.ts";
import { paymentStatusView, type AppliedUpdate, type OrdersService } from "../orders/orders.service.ts";
import type { ProviderRegistry } from "./payments.providers.ts";
import { messageHash } from "./providers/jpay.provider.ts";
import { ProviderUnavailable, type PaymentUpdate } from "./providers/provider.ts";

/** A wallet transfer may be found this long after its order was opened, even once the order expired (decision 210). */
const WALLET_LOOKUP_HOURS = 24;
/** Orders one wallet sweep looks up, at most; the rest wait for the next round. */
const WALLET_SWEEP_BATCH = 100;

/** JPay: orders paid by a TON transfer from the buyer's wallet, credited only for what is found on chain. */
export function createWalletPayments(deps: {
  log: Logger;
  orders: OrdersService;
  providers: ProviderRegistry;
  apply: (provider: ProviderName, u: PaymentUpdate) => Promise<AppliedUpdate>;
}) {
  const { log, orders, providers, apply } = deps;

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
