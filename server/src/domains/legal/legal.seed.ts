import type { Db } from "../../db/client.ts";
import type { LegalDocument } from "../../contract/legal.ts";
import type { Translations } from "../../contract/locales.ts";

/**
 * The first version of the legal pages: a draft whose particulars are empty, so every page names what the operator
 * must still provide ({{field}} placeholders are shown as missing) until an admin publishes a completed version.
 */
export const DRAFT_DOCUMENTS: Record<LegalDocument, { en: string } & Translations> = {
  legal: {
    en: "Operator: {{companyName}}, {{address}}.\n\nDMCA designated agent: {{dmcaAgent}}\n\n18 U.S.C. 2257 record-keeping requirements compliance statement: {{custodianStatement}}\n\nReverie is operated by the Reverie team. By using the service you accept these terms and our privacy policy.\n\nYou may only upload photos of yourself or of people who have given their consent, and everyone shown must be 18 or older.",
    ja: "運営者: {{companyName}}、{{address}}\n\nDMCA指定代理人: {{dmcaAgent}}\n\n18 U.S.C. 2257 記録保管要件に関する声明: {{custodianStatement}}\n\nReverie は Reverie チームが運営しています。本サービスを利用することで、本規約とプライバシーポリシーに同意したものとみなされます。\n\nアップロードできるのは、ご自身または同意を得た人物の写真のみで、写っている全員が18歳以上である必要があります。",
    ko: "운영자: {{companyName}}, {{address}}\n\nDMCA 지정 대리인: {{dmcaAgent}}\n\n18 U.S.C. 2257 기록 보관 요건 준수 진술: {{custodianStatement}}\n\nReverie는 Reverie 팀이 운영합니다. 서비스를 이용하면 본 약관과 개인정보 처리방침에 동의하는 것으로 간주됩니다.\n\n본인 또는 동의한 사람의 사진만 업로드할 수 있으며, 사진 속 모든 사람은 18세 이상이어야 합니다.",
    ru: "Оператор: {{companyName}}, {{address}}.\n\nАгент по DMCA: {{dmcaAgent}}\n\nЗаявление о соблюдении требований к хранению записей 18 U.S.C. 2257: {{custodianStatement}}\n\nReverie управляется командой Reverie. Пользуясь сервисом, вы принимаете эти условия и политику конфиденциальности.\n\nЗагружать можно только свои фото или фото людей, давших согласие, и всем изображённым должно быть 18 лет.",
  },
  terms: {
    en: "Credits are bought in packs and spent on generations. What a generation costs depends on its length, resolution and template, and is shown before you make it; nothing beyond the price shown is charged. A failed generation returns its credits automatically.\n\nYou must not upload content showing minors, content shared without consent, or content that breaks the law. Accounts that do are banned.",
    ja: "クレジットはパックで購入し、生成に使用します。生成にかかるクレジットは長さ・解像度・テンプレートによって異なり、作成前に表示されます。表示された価格を超えて請求されることはありません。生成に失敗した場合、クレジットは自動的に返還されます。\n\n未成年者が写っているコンテンツ、同意なく共有されたコンテンツ、法律に違反するコンテンツをアップロードしてはいけません。違反したアカウントは停止されます。",
    ko: "크레딧은 팩으로 구매해 생성에 사용합니다. 생성에 드는 크레딧은 길이, 해상도, 템플릿에 따라 다르며 만들기 전에 표시됩니다. 표시된 가격을 넘는 금액은 청구되지 않습니다. 생성에 실패하면 크레딧이 자동으로 반환됩니다.\n\n미성년자가 등장하는 콘텐츠, 동의 없이 공유된 콘텐츠, 법을 위반하는 콘텐츠를 업로드해서는 안 됩니다. 위반한 계정은 정지됩니다.",
    ru: "Кредиты покупаются пакетами и тратятся на генерации. Стоимость генерации зависит от длительности, разрешения и шаблона и показывается до её создания; больше показанной цены не списывается. Кредиты за неудачную генерацию возвращаются автоматически.\n\nНельзя загружать контент с несовершеннолетними, опубликованный без согласия или нарушающий закон. Такие аккаунты блокируются.",
  },
  privacy: {
    en: "We store your email (if you log in), your uploads and your creations so that you can use them. Photo metadata such as location is removed on upload.\n\nWe never sell your data. You can delete your creations at any time.",
    ja: "ご利用のために、メールアドレス（ログインした場合）、アップロード、作品を保存します。位置情報などの写真のメタデータはアップロード時に削除されます。\n\nお客様のデータを販売することはありません。作品はいつでも削除できます。",
    ko: "서비스 이용을 위해 이메일(로그인한 경우), 업로드한 파일, 작품을 저장합니다. 위치 등 사진 메타데이터는 업로드 시 제거됩니다.\n\n회원님의 데이터를 판매하지 않습니다. 작품은 언제든 삭제할 수 있습니다.",
    ru: "Мы храним ваш email (если вы вошли), загрузки и работы, чтобы вы могли ими пользоваться. Метаданные фото, например геолокация, удаляются при загрузке.\n\nМы не продаём ваши данные. Работы можно удалить в любой момент.",
  },
  disclaimer: {
    en: "Generated videos and images are produced automatically and may contain mistakes. You are responsible for how you use and share them.",
    ja: "生成された動画や画像は自動的に作成されるため、誤りを含む場合があります。その利用や共有についてはご自身の責任となります。",
    ko: "생성된 동영상과 이미지는 자동으로 만들어지므로 오류가 있을 수 있습니다. 이를 사용하고 공유하는 책임은 본인에게 있습니다.",
    ru: "Видео и изображения создаются автоматически и могут содержать ошибки. Вы отвечаете за то, как их используете и публикуете.",
  },
  returnPolicy: {
    en: "Unused credits can be refunded within 14 days of purchase. Credits spent on a generation that failed are returned automatically.\n\nTo ask for a refund, contact billing support with your account ID and order number.",
    ja: "未使用のクレジットは購入から14日以内であれば返金できます。失敗した生成に使われたクレジットは自動的に返還されます。\n\n返金をご希望の場合は、アカウント ID と注文番号を添えて請求サポートにご連絡ください。",
    ko: "사용하지 않은 크레딧은 구매 후 14일 이내에 환불받을 수 있습니다. 실패한 생성에 사용된 크레딧은 자동으로 반환됩니다.\n\n환불을 원하시면 계정 ID와 주문 번호를 포함해 결제 지원팀에 문의해 주세요.",
    ru: "Неиспользованные кредиты можно вернуть в течение 14 дней после покупки. Кредиты за неудачную генерацию возвращаются автоматически.\n\nЧтобы оформить возврат, напишите в поддержку по оплате, указав ID аккаунта и номер заказа.",
  },
  contact: {
    en: "Questions about your account, a payment or a report? Write to us and we will answer within one business day.\n\nEmail: {{contactEmail}}\nPost: {{companyName}}, {{address}}",
    ja: "アカウント、お支払い、通報についてご質問がありますか？ご連絡いただければ1営業日以内に回答します。\n\nメール: {{contactEmail}}\n郵送先: {{companyName}}、{{address}}",
    ko: "계정, 결제 또는 신고에 대해 궁금한 점이 있나요? 문의해 주시면 영업일 기준 하루 안에 답변드립니다.\n\n이메일: {{contactEmail}}\n우편: {{companyName}}, {{address}}",
    ru: "Вопросы об аккаунте, оплате или жалобе? Напишите нам — ответим в течение рабочего дня.\n\nЭл. почта: {{contactEmail}}\nПочтовый адрес: {{companyName}}, {{address}}",
  },
};

/** Publishes the draft as version 1 when no version exists (idempotent; start-up seeds call it every time). */
export async function seedLegal(db: Db): Promise<void> {
  if (await db.legalVersion.count()) return;
  await db.legalVersion.create({ data: { version: 1, effectiveAt: new Date(), documents: DRAFT_DOCUMENTS } });
}
