import { useEffect, useState } from "react";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import Typography from "@mui/material/Typography";
import AddToHomeScreenIcon from "@mui/icons-material/AddToHomeScreen";
import { useTranslation } from "react-i18next";
import { promptInstall, type InstallOutcome } from "../features/install/install.ts";
import { dialogs } from "./dialog-store.ts";

/** Add to home screen: the browser's own prompt where it has one; otherwise the SPEC.md §8 unsupported message. */
export default function InstallDialog() {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<InstallOutcome | null>(null);
  useEffect(() => {
    void promptInstall().then(setOutcome);
  }, []);
  return (
    <Dialog open onClose={() => dialogs.close()} maxWidth="xs" fullWidth data-testid="install-dialog">
      <DialogContent sx={{ textAlign: "center", pt: 4 }}>
        <AddToHomeScreenIcon sx={{ fontSize: 48, color: "primary.main" }} />
        <Typography variant="h6" sx={{ mt: 1 }}>
          {t("install.title")}
        </Typography>
        {outcome === null ? (
          <CircularProgress size={24} sx={{ mt: 2 }} />
        ) : (
          <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="install-outcome" data-outcome={outcome}>
            {t(`install.${outcome}`)}
          </Typography>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 3 }}>
        <Button onClick={() => dialogs.close()}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
