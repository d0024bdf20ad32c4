import type { Order } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import { orderView, type OrdersService, type RefundRequest } from "../orders/orders.service.ts";
import { providerNamed, type ProviderRegistry } from "./payments.providers.ts";
import { ProviderUnavailable } from "./providers/provider.ts";

export const REFUND_UNSUPPORTED = "This payment provider cannot refund this order";
/** JPay: the agent sends the TON back from the receiving wallet first, then confirms with that transfer's reference. */
export const RETURN_REFERENCE_REQUIRED = "Send the money back from the receiving wallet first, then enter the reference of that transfer";

/** Staff refunds: the provider returns the money (or staff did, by hand), then the order's credits go back. */
export function createStaffRefunds(deps: { orders: OrdersService; providers: ProviderRegistry; stopRenewals: (order: Order) => Promise<void> }) {
  const { orders, providers, stopRenewals } = deps;

  return {
    /**
     * Staff refund (POST /admin/api/orders/:id/refund): claim the paid order, have the provider return the money with
     * no database transaction open, then take the credits back and audit it in one transaction (decision 113).
     */
    async refundOrder(r: RefundRequest) {
      const order = await orders.beginRefund(r);
      const provider = providerNamed(providers, order.provider);
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
      const byHand = providerNamed(providers, order.provider)?.returnedByHand;
      return { ...preview, return_by_hand: byHand ? { amount: order.receivedAmount, currency: order.receivedCurrency } : null };
    },
  };
}
