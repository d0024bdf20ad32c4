import type { AppAbility } from "../../authz/abilities.ts";
import type { Language } from "../../contract/locales.ts";
import type { Order, Product } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { RateLimiter } from "../../http/rate-limit.ts";
import { formatMinor } from "../products/money.ts";
import { receiptMail } from "./receipt-mail.ts";
import { statusText } from "./orders.status.ts";

export const NO_RECEIPT = "This order has no receipt: it was not paid";
export const NO_EMAIL = "Add an email to your account to get receipts by email";
export const RECEIPT_SENT_TOO_OFTEN = "This receipt was sent several times already; please try again later";

/** How many times one order's receipt may be emailed in an hour (a mistaken tap, not a mail cannon). */
const EMAILS_PER_ORDER_PER_HOUR = 3;

/** What staff returned of a refunded order: what the provider said it returned, else all of it. */
function refundedMinor(o: Order): number | null {
  if (o.refundedMinor) return o.refundedMinor;
  return o.status === "refunded" ? o.finalPriceMinor : null;
}

/** A paid order's receipt as the buyer sees it; the order number is the handle support looks an order up by. */
export function receiptView(o: Order & { product: Product }) {
  const refunded = refundedMinor(o);
  return {
    order_id: o.id,
    order_no: o.orderNo,
    order_status: statusText(o.status),
    product_name: o.productName,
    quantity: o.quantity,
    credits: o.credits,
    bonus_credits: o.bonusCredits,
    price_text: formatMinor(o.finalPriceMinor, o.currency),
    provider: o.provider,
    created_at: o.createdAt,
    paid_at: o.paidAt!,
    refunded: refunded !== null,
    refunded_text: refunded !== null ? formatMinor(refunded, o.currency) : null,
  };
}

/** Receipts of paid orders (issue 30 item 3): a page for the buyer, and the same by email to the address on file. */
export function createOrderReceipts(deps: {
  readable(orderId: number, ability: AppAbility): Promise<Order & { product: Product }>;
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  sendMail(mail: { to: string; subject: string; body: string }): Promise<void>;
  limiter: RateLimiter;
}) {
  /** Only the owner's (or staff's) order, and only once it was paid: a refunded order keeps its receipt, marked so. */
  async function paidOrder(orderId: number, ability: AppAbility) {
    const order = await deps.readable(orderId, ability);
    if (!order.paidAt || (order.status !== "paid" && order.status !== "refunded")) throw HttpError.conflict(NO_RECEIPT);
    return order;
  }

  return {
    async receipt(orderId: number, ability: AppAbility) {
      return receiptView(await paidOrder(orderId, ability));
    },

    /** Emails the receipt in the buyer's language; the email goes through the outbox like every other. */
    async emailReceipt(orderId: number, ability: AppAbility): Promise<{ sent_to: string }> {
      const order = await paidOrder(orderId, ability);
      const contact = await deps.contactOf(order.userId);
      if (!contact) throw HttpError.conflict(NO_EMAIL);
      await deps.limiter.hit("receipt-email", [{ key: `order:${order.id}`, limit: EMAILS_PER_ORDER_PER_HOUR, windowSeconds: 3600 }], RECEIPT_SENT_TOO_OFTEN);
      const r = receiptView(order);
      const paidOn = new Intl.DateTimeFormat(contact.language, { dateStyle: "long", timeZone: "UTC" }).format(r.paid_at);
      const mail = receiptMail(
        {
          orderNo: r.order_no,
          product: r.product_name,
          credits: r.credits + r.bonus_credits,
          price: r.price_text,
          provider: r.provider,
          paidOn,
          refunded: r.refunded_text,
        },
        contact.language,
      );
      await deps.sendMail({ to: contact.email, ...mail });
      return { sent_to: contact.email };
    },
  };
}

export type OrderReceipts = ReturnType<typeof createOrderReceipts>;
