import type { Logger } from "pino";
import type { Config } from "../../config.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order } from "../../db/generated/client.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { MembershipsService } from "../memberships/memberships.service.ts";
import type { ProductsService } from "../products/products.service.ts";
import { createOrderCheckout } from "./orders.checkout.ts";
import { createPaymentUpdates } from "./orders.payment-updates.ts";
import { createOrderReads } from "./orders.reads.ts";
import { createOrderRefunds } from "./orders.refunds.ts";
import { createOrderReversals } from "./orders.reversals.ts";

// what other domains take from orders, one module away
export { BANNED_AT_PAYMENT } from "./orders.status.ts";
export { orderView, paymentStatusView } from "./orders.views.ts";
export type { AppliedUpdate } from "./orders.payment-updates.ts";
export type { RefundRequest } from "./orders.refunds.ts";

/**
 * Orders: created for a checkout, read by their owner, changed by verified provider facts (each applied once) and
 * refunded by staff. One module per use case; this wires them.
 */
export function createOrdersService(deps: {
  db: Db;
  config: Config;
  credits: CreditsService;
  products: ProductsService;
  memberships: MembershipsService;
  log: Logger;
  audit: AuditService;
  /** runs inside the transaction that marks an order paid (the purchase conversion's outbox, docs/decisions/121) */
  onPaid?: (tx: Tx, order: Order) => Promise<void>;
}) {
  const checkout = createOrderCheckout(deps);
  const reads = createOrderReads(deps.db);
  const refunds = createOrderRefunds(deps);
  const reversals = createOrderReversals({ ...deps, clawBack: refunds.clawBack });
  const updates = createPaymentUpdates({ ...deps, reversals });
  return {
    moveToUser: reads.moveToUser,
    eraseUser: reads.eraseUser,
    createPending: checkout.createPending,
    attachCheckout: checkout.attachCheckout,
    markCheckoutFailed: checkout.markCheckoutFailed,
    readable: reads.readable,
    readableByProviderRef: reads.readableByProviderRef,
    readableByOrderNo: reads.readableByOrderNo,
    awaitingPayment: reads.awaitingPayment,
    reload: reads.reload,
    listForUser: reads.listForUser,
    logPixelAction: reads.logPixelAction,
    applyUpdate: updates.applyUpdate,
    refundPreview: refunds.refundPreview,
    beginRefund: refunds.beginRefund,
    abandonRefund: refunds.abandonRefund,
    finishRefund: refunds.finishRefund,
    markBannedRefunded: refunds.markBannedRefunded,
    expireAbandoned: checkout.expireAbandoned,
  };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
