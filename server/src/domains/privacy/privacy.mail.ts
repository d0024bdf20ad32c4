import type { Language } from "../../contract/locales.ts";

type Copy = { subject: string; body: (date: string) => string };

/** The two emails of My data in each language of the app; "Reverie" is replaced by the operator's brand when sent. */
const COPY: Record<Language, { exportReady: Copy; deletionScheduled: Copy }> = {
  en: {
    exportReady: {
      subject: "Your Reverie data export is ready",
      body: (date) => `The archive of your Reverie data is ready. Sign in and open My data to download it before ${date}.`,
    },
    deletionScheduled: {
      subject: "Your Reverie account will be deleted",
      body: (date) => `Your Reverie account and its data will be deleted on ${date}. Changed your mind? Sign in and open My data to undo it before then.`,
    },
  },
  ja: {
    exportReady: {
      subject: "Reverieのデータのエクスポートの準備ができました",
      body: (date) => `Reverieのデータのアーカイブの準備ができました。${date}までにサインインして「マイデータ」を開き、ダウンロードしてください。`,
    },
    deletionScheduled: {
      subject: "Reverieのアカウントは削除されます",
      body: (date) => `Reverieのアカウントとそのデータは${date}に削除されます。取り消す場合は、それまでにサインインして「マイデータ」を開いてください。`,
    },
  },
  ko: {
    exportReady: {
      subject: "Reverie 데이터 내보내기가 준비되었습니다",
      body: (date) => `Reverie 데이터 압축 파일이 준비되었습니다. ${date} 전에 로그인하여 내 데이터에서 다운로드하세요.`,
    },
    deletionScheduled: {
      subject: "Reverie 계정이 삭제될 예정입니다",
      body: (date) => `Reverie 계정과 데이터가 ${date}에 삭제됩니다. 마음이 바뀌셨나요? 그 전에 로그인하여 내 데이터에서 취소하세요.`,
    },
  },
  ru: {
    exportReady: {
      subject: "Выгрузка ваших данных Reverie готова",
      body: (date) => `Архив ваших данных Reverie готов. Войдите и откройте «Мои данные», чтобы скачать его до ${date}.`,
    },
    deletionScheduled: {
      subject: "Ваш аккаунт Reverie будет удалён",
      body: (date) =>
        `Ваш аккаунт Reverie и его данные будут удалены ${date}. Передумали? Войдите и откройте «Мои данные», чтобы отменить удаление до этого срока.`,
    },
  },
};

/** The email's date in the reader's language; UTC, since the server does not know the reader's time zone. */
const dateIn = (language: Language, at: Date) =>
  `${new Intl.DateTimeFormat(language, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;

/** The subject and body of a My data email (export ready, deletion scheduled), in the person's language. */
export function privacyMail(kind: keyof (typeof COPY)["en"], language: Language, at: Date): { subject: string; body: string } {
  const copy = COPY[language][kind];
  return { subject: copy.subject, body: copy.body(dateIn(language, at)) };
}
