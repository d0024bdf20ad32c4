import { useTranslation } from "react-i18next";
import { MessagePage } from "./MessagePage.tsx";

export function Component() {
  const { t } = useTranslation();
  return <MessagePage mark={t("notFound.mark")} title={t("notFound.title")} body={t("notFound.body")} testId="not-found" />;
}
