import { useTranslation } from "react-i18next";
import { MessagePage } from "./MessagePage.tsx";

/** Shown if a screen fails to load (an old tab after a deploy, a lost connection while fetching a screen). */
export function RouteError() {
  const { t } = useTranslation();
  return <MessagePage mark={t("routeError.mark")} title={t("routeError.title")} body={t("routeError.body")} testId="route-error" />;
}
