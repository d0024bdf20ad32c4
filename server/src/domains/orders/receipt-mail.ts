import type { Language } from "../../contract/locales.ts";

/** What a receipt email tells, already formatted (amounts with their currency, the date in the reader's language). */
export interface ReceiptFacts {
  orderNo: string;
  product: string;
  credits: number;
  price: string;
  /** the provider's code (`sandbox`, `stripe`...): each language names it */
  provider: string;
  paidOn: string;
  /** what staff returned, where the order was refunded */
  refunded: string | null;
}

type Copy = {
  subject: (r: ReceiptFacts) => string;
  lines: (r: ReceiptFacts, provider: string) => string[];
  refunded: (r: ReceiptFacts) => string;
  /** the providers named in words, as the app's payment options name them; the others by their brand */
  providers: Record<string, string>;
};

/** The receipt email in each language of the app (contract/locales.ts). */
const COPY: Record<Language, Copy> = {
  en: {
    subject: (r) => `Reverie receipt for order ${r.orderNo}`,
    lines: (r, provider) => [
      `Thank you for your purchase.`,
      `Order: ${r.orderNo}`,
      `Item: ${r.product} (${r.credits} credits)`,
      `Paid: ${r.price} on ${r.paidOn} via ${provider}`,
    ],
    refunded: (r) => `Refunded: ${r.refunded}`,
    providers: { sandbox: "Card (test checkout)", stripe: "Card", jpay: "TON wallet" },
  },
  ja: {
    subject: (r) => `Reverie 注文 ${r.orderNo} の領収書`,
    lines: (r, provider) => [
      `ご購入ありがとうございます。`,
      `注文番号: ${r.orderNo}`,
      `商品: ${r.product}（${r.credits}クレジット）`,
      `お支払い: ${r.price}（${r.paidOn}、${provider}）`,
    ],
    refunded: (r) => `返金済み: ${r.refunded}`,
    providers: { sandbox: "カード（テスト決済）", stripe: "カード", jpay: "TONウォレット" },
  },
  ko: {
    subject: (r) => `Reverie 주문 ${r.orderNo} 영수증`,
    lines: (r, provider) => [
      `구매해 주셔서 감사합니다.`,
      `주문 번호: ${r.orderNo}`,
      `상품: ${r.product} (${r.credits}크레딧)`,
      `결제: ${r.price} (${r.paidOn}, ${provider})`,
    ],
    refunded: (r) => `환불됨: ${r.refunded}`,
    providers: { sandbox: "카드 (테스트 결제)", stripe: "카드", jpay: "TON 지갑" },
  },
  ru: {
    subject: (r) => `Чек Reverie по заказу ${r.orderNo}`,
    lines: (r, provider) => [
      `Спасибо за покупку.`,
      `Заказ: ${r.orderNo}`,
      `Товар: ${r.product} (кредитов: ${r.credits})`,
      `Оплачено: ${r.price}, ${r.paidOn}, через ${provider}`,
    ],
    refunded: (r) => `Возвращено: ${r.refunded}`,
    providers: { sandbox: "Карта (тестовая оплата)", stripe: "Карта", jpay: "TON-кошелёк" },
  },
};

/** Providers known by their brand, the same in every language. */
const BRANDS: Record<string, string> = { paypal: "PayPal", pagsmile: "Pagsmile", usdt: "USDT" };

/** The subject and body of one order's receipt, in the buyer's language. */
export function receiptMail(r: ReceiptFacts, language: Language): { subject: string; body: string } {
  const copy = COPY[language];
  const lines = copy.lines(r, copy.providers[r.provider] ?? BRANDS[r.provider] ?? r.provider);
  if (r.refunded) lines.push(copy.refunded(r));
  return { subject: copy.subject(r), body: lines.join("\n") };
}
