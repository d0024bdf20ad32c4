import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { dialogs } from "../dialogs/dialog-store.ts";
import { MessagePage } from "./MessagePage.tsx";

export function Component() {
  const { t } = useTranslation();
  return (
    <MessagePage mark={t("noPermission.mark")} title={t("noPermission.title")} body={t("msg.forbidden")} testId="no-permission">
      <Button variant="outlined" size="large" onClick={() => dialogs.open("login")}>
        {t("login.action")}
      </Button>
    </MessagePage>
  );
}
