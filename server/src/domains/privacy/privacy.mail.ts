import type { Language } from "../../contract/locales.ts";
import type { CodeMail } from "../auth/auth.email-codes.ts";

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

/** The deletion code's email in each language: it says the code deletes the account, unlike a sign-in code's. */
const CODE_COPY: Record<Language, { subject: (code: string) => string; body: (code: string, minutes: number) => string }> = {
  en: {
    subject: (code) => `Code to delete your Reverie account: ${code}`,
    body: (code, minutes) =>
      `You asked to delete your Reverie account. Enter ${code} in My data to confirm: your account and its data will then be deleted after the grace period. The code expires in ${minutes} minutes. If you did not ask for this, ignore this email: nothing is deleted without the code.`,
  },
  ja: {
    subject: (code) => `Reverieのアカウントを削除するコード：${code}`,
    body: (code, minutes) =>
      `Reverieのアカウントの削除が依頼されました。確認するには「マイデータ」で${code}を入力してください。猶予期間の後、アカウントとそのデータは削除されます。コードの有効期限は${minutes}分です。心当たりがない場合はこのメールを無視してください。コードがなければ何も削除されません。`,
  },
  ko: {
    subject: (code) => `Reverie 계정 삭제 코드: ${code}`,
    body: (code, minutes) =>
      `Reverie 계정 삭제를 요청하셨습니다. 확인하려면 내 데이터에서 ${code}을(를) 입력하세요. 유예 기간이 지나면 계정과 데이터가 삭제됩니다. 코드는 ${minutes}분 후 만료됩니다. 요청하지 않으셨다면 이 메일을 무시하세요. 코드 없이는 아무것도 삭제되지 않습니다.`,
  },
  ru: {
    subject: (code) => `Код для удаления аккаунта Reverie: ${code}`,
    body: (code, minutes) =>
      `Вы попросили удалить аккаунт Reverie. Введите ${code} в разделе «Мои данные», чтобы подтвердить: после льготного срока аккаунт и его данные будут удалены. Код действует ${minutes} мин. Если вы этого не просили, не обращайте внимания на письмо: без кода ничего не удаляется.`,
  },
};

/** The account deletion code's email in the person's language. */
export function deletionCodeMail(language: Language): CodeMail {
  const copy = CODE_COPY[language];
  return (code, minutes) => ({ subject: copy.subject(code), body: copy.body(code, minutes) });
}
