import type { Language } from "../../contract/locales.ts";

/** What a receipt email tells, already formatted (amounts with their currency, the date in the reader's language). */
export interface ReceiptFacts {
  orderNo: string;
  product: string;
  credits: number;
  price: string;
  provider: string;
  paidOn: string;
  /** what staff returned, where the order was refunded */
  refunded: string | null;
}

type Copy = { subject: (r: ReceiptFacts) => string; lines: (r: ReceiptFacts) => string[]; refunded: (r: ReceiptFacts) => string };

/** The receipt email in each language of the app (contract/locales.ts). */
const COPY: Record<Language, Copy> = {
  en: {
    subject: (r) => `Reverie receipt for order ${r.orderNo}`,
    lines: (r) => [
      `Thank you for your purchase.`,
      `Order: ${r.orderNo}`,
      `Item: ${r.product} (${r.credits} credits)`,
      `Paid: ${r.price} on ${r.paidOn} via ${r.provider}`,
    ],
    refunded: (r) => `Refunded: ${r.refunded}`,
  },
  ja: {
    subject: (r) => `Reverie 注文 ${r.orderNo} の領収書`,
    lines: (r) => [
      `ご購入ありがとうございます。`,
      `注文番号: ${r.orderNo}`,
      `商品: ${r.product}（${r.credits}クレジット）`,
      `お支払い: ${r.price}（${r.paidOn}、${r.provider}）`,
    ],
    refunded: (r) => `返金済み: ${r.refunded}`,
  },
  ko: {
    subject: (r) => `Reverie 주문 ${r.orderNo} 영수증`,
    lines: (r) => [
      `구매해 주셔서 감사합니다.`,
      `주문 번호: ${r.orderNo}`,
      `상품: ${r.product} (${r.credits}크레딧)`,
      `결제: ${r.price} (${r.paidOn}, ${r.provider})`,
    ],
    refunded: (r) => `환불됨: ${r.refunded}`,
  },
  ru: {
    subject: (r) => `Чек Reverie по заказу ${r.orderNo}`,
    lines: (r) => [
      `Спасибо за покупку.`,
      `Заказ: ${r.orderNo}`,
      `Товар: ${r.product} (кредитов: ${r.credits})`,
      `Оплачено: ${r.price}, ${r.paidOn}, через ${r.provider}`,
    ],
    refunded: (r) => `Возвращено: ${r.refunded}`,
  },
};

/** Providers as a receipt names them (brand names, the same in every language). */
const PROVIDER_NAMES: Record<string, string> = {
  sandbox: "Test checkout",
  stripe: "Card (Stripe)",
  paypal: "PayPal",
  pagsmile: "Pagsmile",
  usdt: "USDT",
  jpay: "TON wallet",
};

export const providerName = (provider: string): string => PROVIDER_NAMES[provider] ?? provider;

/** The subject and body of one order's receipt, in the buyer's language. */
export function receiptMail(r: ReceiptFacts, language: Language): { subject: string; body: string } {
  const copy = COPY[language];
  const lines = copy.lines(r);
  if (r.refunded) lines.push(copy.refunded(r));
  return { subject: copy.subject(r), body: lines.join("\n") };
}
