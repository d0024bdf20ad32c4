import type { Language } from "../../contract/locales.ts";

/** The email telling a person support answered, in each language of the app; staff's words stay as written. */
const COPY: Record<Language, { subject: string; body: (reply: string) => string }> = {
  en: {
    subject: "Reverie support replied to you",
    body: (reply) => `Support replied to your message:\n\n${reply}\n\nTo answer, open Reverie and tap the support bubble at the bottom right.`,
  },
  ja: {
    subject: "Reverieサポートから返信がありました",
    body: (reply) => `サポートからの返信:\n\n${reply}\n\n返信するには、Reverieを開いて右下のサポートボタンをタップしてください。`,
  },
  ko: {
    subject: "Reverie 고객지원에서 답변했습니다",
    body: (reply) => `고객지원 답변:\n\n${reply}\n\n답장하려면 Reverie를 열고 오른쪽 아래의 지원 버튼을 누르세요.`,
  },
  ru: {
    subject: "Поддержка Reverie ответила вам",
    body: (reply) => `Ответ поддержки на ваше сообщение:\n\n${reply}\n\nЧтобы ответить, откройте Reverie и нажмите кнопку поддержки внизу справа.`,
  },
};

/** The subject and body of the email carrying support's reply, in the person's language. */
export function supportReplyMail(reply: string, language: Language): { subject: string; body: string } {
  const copy = COPY[language];
  return { subject: copy.subject, body: copy.body(reply) };
}
