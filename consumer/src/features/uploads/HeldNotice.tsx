import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";

/**
 * Said when screening holds (or rejected) an upload (issue 19): the server's message, translated. The upload is not
 * chosen, so nothing can be submitted with it and nothing is charged.
 */
export function HeldNotice({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info" sx={{ mt: 1, overflowWrap: "anywhere" }} data-testid="upload-held">
      <AlertTitle>{t("screening.heldTitle")}</AlertTitle>
      {translateMessage(message)}
    </Alert>
  );
}
