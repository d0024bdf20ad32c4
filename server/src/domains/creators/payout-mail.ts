import type { Language } from "../../contract/locales.ts";

/** A decided payout as its email tells it: approved with the transfer's reference, or rejected with staff's reason. */
export type PayoutDecision = { id: number; amount: number } & ({ outcome: "approved"; reference: string } | { outcome: "rejected"; reason: string });

type Copy = Record<PayoutDecision["outcome"], { subject: (d: PayoutDecision) => string; body: (d: PayoutDecision, detail: string) => string }>;

/** What staff wrote (the reference or the reason), whichever the outcome carries. */
const detailOf = (d: PayoutDecision) => (d.outcome === "approved" ? d.reference : d.reason);

/** The email to the creator in each language of the app (contract/locales.ts); staff's own words stay as written. */
const COPY: Record<Language, Copy> = {
  en: {
    approved: {
      subject: (d) => `Reverie: your payout of ${d.amount} credits was approved`,
      body: (d, ref) => `Your payout request #${d.id} of ${d.amount} credits was approved and the money has been sent.\nTransfer reference: ${ref}`,
    },
    rejected: {
      subject: (d) => `Reverie: your payout of ${d.amount} credits was not approved`,
      body: (d, reason) =>
        `Your payout request #${d.id} of ${d.amount} credits was not approved.\nReason: ${reason}\nThe ${d.amount} credits are back in your balance; you can ask for a payout again from your page.`,
    },
  },
  ja: {
    approved: {
      subject: (d) => `Reverie: ${d.amount}クレジットの出金が承認されました`,
      body: (d, ref) => `出金リクエスト #${d.id}（${d.amount}クレジット）が承認され、送金されました。\n送金の参照番号: ${ref}`,
    },
    rejected: {
      subject: (d) => `Reverie: ${d.amount}クレジットの出金は承認されませんでした`,
      body: (d, reason) =>
        `出金リクエスト #${d.id}（${d.amount}クレジット）は承認されませんでした。\n理由: ${reason}\n${d.amount}クレジットは残高に戻りました。ページから再度出金をリクエストできます。`,
    },
  },
  ko: {
    approved: {
      subject: (d) => `Reverie: ${d.amount}크레딧 출금이 승인되었습니다`,
      body: (d, ref) => `출금 요청 #${d.id}(${d.amount}크레딧)이 승인되어 송금되었습니다.\n송금 참조 번호: ${ref}`,
    },
    rejected: {
      subject: (d) => `Reverie: ${d.amount}크레딧 출금이 승인되지 않았습니다`,
      body: (d, reason) =>
        `출금 요청 #${d.id}(${d.amount}크레딧)이 승인되지 않았습니다.\n사유: ${reason}\n${d.amount}크레딧은 잔액으로 돌아왔습니다. 페이지에서 다시 출금을 요청할 수 있습니다.`,
    },
  },
  ru: {
    approved: {
      subject: (d) => `Reverie: выплата ${d.amount} кредитов одобрена`,
      body: (d, ref) => `Ваш запрос на выплату №${d.id} (${d.amount} кредитов) одобрен, деньги отправлены.\nНомер перевода: ${ref}`,
    },
    rejected: {
      subject: (d) => `Reverie: выплата ${d.amount} кредитов не одобрена`,
      body: (d, reason) =>
        `Ваш запрос на выплату №${d.id} (${d.amount} кредитов) не одобрен.\nПричина: ${reason}\n${d.amount} кредитов вернулись на ваш баланс; вы можете снова запросить выплату на своей странице.`,
    },
  },
};

/** The subject and body of the email telling the creator how their payout was decided, in their language. */
export function payoutMail(d: PayoutDecision, language: Language): { subject: string; body: string } {
  const copy = COPY[language][d.outcome];
  return { subject: copy.subject(d), body: copy.body(d, detailOf(d)) };
}
