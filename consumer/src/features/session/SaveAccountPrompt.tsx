import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";

/**
 * Asks a guest to save the account with an email (issue 30 item 5): required before a creator page or a training,
 * offered after a payment. The login dialog signs in with the guest's token, so the account keeps everything the guest
 * has (docs/decisions/004).
 */
export function SaveAccountPrompt({ moment }: { moment: "page" | "training" | "payment" }) {
  const { t } = useTranslation();
  // the button sits under the text: beside it, a phone's 360 px leave the text a narrow column
  return (
    <Alert severity={moment === "payment" ? "success" : "info"} data-testid="save-account-prompt" sx={{ textAlign: "start" }}>
      {t(`saveAccount.${moment}`)}
      <Box sx={{ mt: 1 }}>
        <Button variant="outlined" color="inherit" size="small" onClick={() => dialogs.open("login")} data-testid="save-account">
          {t("saveAccount.action")}
        </Button>
      </Box>
    </Alert>
  );
}
