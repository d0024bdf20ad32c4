import type { NotificationKind } from "../../contract/notifications.ts";
import type { Language } from "../../contract/locales.ts";

/** One line of the digest: what happened, how many times, the latest actor's public name (null: someone). */
export interface DigestLine {
  kind: NotificationKind;
  count: number;
  amount: number;
  actor: string | null;
}

type Phrase = (who: string, n: number, amount: number) => string;

interface Copy {
  subject: (n: number) => string;
  intro: string;
  someone: string;
  open: string;
  stop: string;
  lines: Record<NotificationKind, Phrase>;
}

/** The digest in each language of the app; "Reverie" is replaced by the operator's brand when sent. */
const COPY: Record<Language, Copy> = {
  en: {
    subject: (n) => `Reverie: ${n} new ${n === 1 ? "notification" : "notifications"}`,
    intro: "Here is what happened on Reverie since your last digest:",
    someone: "Someone",
    open: "Open Reverie",
    stop: "Stop these emails",
    lines: {
      like: (who, n) => (n === 1 ? `${who} liked your creation` : `${n} people liked your creation`),
      remix: (who, n) => (n === 1 ? `${who} remixed your creation` : `${n} people remixed your creation`),
      follow: (who, n) => (n === 1 ? `${who} started following you` : `${n} new followers`),
      tip: (who, n, a) => (n === 1 ? `${who} tipped you ${a} credits` : `${n} tips, ${a} credits in all`),
      message: (who, n) => (n === 1 ? `${who} sent you a message` : `${n} new messages`),
      unlock: (who, n, a) => (n === 1 ? `${who} unlocked your message for ${a} credits` : `${n} unlocks, ${a} credits in all`),
    },
  },
  ja: {
    subject: (n) => `Reverie: 新しいお知らせが${n}件あります`,
    intro: "前回のまとめ以降、Reverieであったこと:",
    someone: "誰か",
    open: "Reverieを開く",
    stop: "このメールを停止する",
    lines: {
      like: (who, n) => (n === 1 ? `${who}さんがあなたの作品にいいねしました` : `${n}人があなたの作品にいいねしました`),
      remix: (who, n) => (n === 1 ? `${who}さんがあなたの作品をリミックスしました` : `${n}人があなたの作品をリミックスしました`),
      follow: (who, n) => (n === 1 ? `${who}さんがあなたをフォローしました` : `新しいフォロワーが${n}人います`),
      tip: (who, n, a) => (n === 1 ? `${who}さんから${a}クレジットのチップが届きました` : `チップ${n}件、合計${a}クレジット`),
      message: (who, n) => (n === 1 ? `${who}さんからメッセージが届きました` : `新しいメッセージが${n}件あります`),
      unlock: (who, n, a) => (n === 1 ? `${who}さんが${a}クレジットであなたのメッセージを解除しました` : `解除${n}件、合計${a}クレジット`),
    },
  },
  ko: {
    subject: (n) => `Reverie: 새 알림 ${n}개`,
    intro: "지난 요약 이후 Reverie에서 있었던 일:",
    someone: "누군가",
    open: "Reverie 열기",
    stop: "이 이메일 받지 않기",
    lines: {
      like: (who, n) => (n === 1 ? `${who}님이 회원님의 작품을 좋아합니다` : `${n}명이 회원님의 작품을 좋아합니다`),
      remix: (who, n) => (n === 1 ? `${who}님이 회원님의 작품을 리믹스했습니다` : `${n}명이 회원님의 작품을 리믹스했습니다`),
      follow: (who, n) => (n === 1 ? `${who}님이 회원님을 팔로우하기 시작했습니다` : `새 팔로워 ${n}명`),
      tip: (who, n, a) => (n === 1 ? `${who}님이 ${a}크레딧을 후원했습니다` : `후원 ${n}건, 총 ${a}크레딧`),
      message: (who, n) => (n === 1 ? `${who}님이 메시지를 보냈습니다` : `새 메시지 ${n}개`),
      unlock: (who, n, a) => (n === 1 ? `${who}님이 ${a}크레딧으로 메시지를 열었습니다` : `잠금 해제 ${n}건, 총 ${a}크레딧`),
    },
  },
  ru: {
    subject: (n) => `Reverie: новые уведомления (${n})`,
    intro: "Вот что произошло в Reverie с прошлой сводки:",
    someone: "Кто-то",
    open: "Открыть Reverie",
    stop: "Отписаться от этих писем",
    lines: {
      like: (who, n) => (n === 1 ? `${who}: нравится ваше творение` : `Ваше творение понравилось людям: ${n}`),
      remix: (who, n) => (n === 1 ? `${who} сделал(а) ремикс вашего творения` : `Ремиксов вашего творения: ${n}`),
      follow: (who, n) => (n === 1 ? `${who} подписался(-ась) на вас` : `Новых подписчиков: ${n}`),
      tip: (who, n, a) => (n === 1 ? `${who} отправил(а) вам чаевые: ${a} кредитов` : `Чаевых: ${n}, всего ${a} кредитов`),
      message: (who, n) => (n === 1 ? `${who} отправил(а) вам сообщение` : `Новых сообщений: ${n}`),
      unlock: (who, n, a) => (n === 1 ? `${who} открыл(а) ваше сообщение за ${a} кредитов` : `Открытий: ${n}, всего ${a} кредитов`),
    },
  },
};

/** The digest email of `lines` in the reader's language, with the link to the app and the one that stops digests. */
export function digestMail(language: Language, lines: DigestLine[], links: { app: string; unsubscribe: string }): { subject: string; body: string } {
  const c = COPY[language];
  const told = lines.map((l) => `• ${c.lines[l.kind](l.actor ?? c.someone, l.count, l.amount)}`);
  const body = [c.intro, "", ...told, "", `${c.open}: ${links.app}`, "", `${c.stop}: ${links.unsubscribe}`].join("\n");
  return { subject: c.subject(lines.length), body };
}
