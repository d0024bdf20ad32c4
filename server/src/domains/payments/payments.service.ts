import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { OrdersService } from "../orders/orders.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import { createCheckouts } from "./payments.checkout.ts";
import { createProviderFacts } from "./payments.facts.ts";
import type { ProviderRegistry } from "./payments.providers.ts";
import type { PaymentMetrics } from "../../metrics/metrics.ts";
import { createStaffRefunds } from "./payments.refunds.ts";
import { createSubscriptionStops } from "./payments.subscriptions.ts";
import { createWalletPayments } from "./payments.wallet.ts";

/**
 * Taking money: opens checkouts with a provider, and turns verified provider facts (signed notifications,
 * server-side queries, captures) into order changes through the orders service. Never the browser's word.
 * One module per use case; this wires them.
 */
export function createPaymentsService(deps: {
  config: Config;
  log: Logger;
  orders: OrdersService;
  memberships: MembershipsService;
  providers: ProviderRegistry;
  /** The legal pages' version in force: the terms the buyer agrees to at checkout (the legal domain). */
  termsInForce: () => Promise<number | null>;
  /** Notifications by provider and outcome, for the operations figures. */
  notifications: PaymentMetrics;
}) {
  const checkouts = createCheckouts(deps);
  const subscriptions = createSubscriptionStops(deps);
  const facts = createProviderFacts({ ...deps, stopRenewals: subscriptions.stopRenewals });
  const refunds = createStaffRefunds({ ...deps, stopRenewals: subscriptions.stopRenewals });
  const wallet = createWalletPayments({ ...deps, apply: facts.apply });
  return {
    startCheckout: checkouts.startCheckout,
    configuredProviders: checkouts.configuredProviders,
    handleNotification: facts.handleNotification,
    queryPayment: facts.queryPayment,
    capturePaypalOrder: facts.capturePaypalOrder,
    refundOrder: refunds.refundOrder,
    refundPreview: refunds.refundPreview,
    cancelMembership: subscriptions.cancelMembership,
    resumeMembership: subscriptions.resumeMembership,
    currentMembership: subscriptions.currentMembership,
    /** The sweep that expires abandoned orders; main.ts runs it on a timer, tests call it directly. */
    expireAbandoned: (now?: Date) => deps.orders.expireAbandoned(now),
    walletTransfer: wallet.walletTransfer,
    walletOrderPay: wallet.walletOrderPay,
    sweepWalletOrders: wallet.sweepWalletOrders,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
