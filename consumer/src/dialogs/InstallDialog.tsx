import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import Typography from "@mui/material/Typography";
import AddToHomeScreenIcon from "@mui/icons-material/AddToHomeScreen";
import { useTranslation } from "react-i18next";
import { installState, promptInstall, type InstallOutcome } from "../features/install/install.ts";
import { dialogs } from "./dialog-store.ts";

const STEPS = ["ios", "android", "desktop"] as const;

/**
 * Add to home screen: an Install button that opens the browser's own prompt where it has one (the tap is what lets
 * the browser show it); otherwise SPEC.md §8's unsupported message and the steps of the browsers' own menus.
 */
export default function InstallDialog() {
  const { t } = useTranslation();
  const [state] = useState(installState);
  const [outcome, setOutcome] = useState<InstallOutcome | null>(null);
  const shown = outcome ?? state;
  return (
    <Dialog open onClose={() => dialogs.close()} maxWidth="xs" fullWidth data-testid="install-dialog">
      <DialogContent sx={{ textAlign: "center", pt: 4 }}>
        <AddToHomeScreenIcon sx={{ fontSize: 48, color: "primary.main" }} />
        <Typography variant="h6" sx={{ mt: 1 }}>
          {t("install.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="install-outcome" data-outcome={shown}>
          {t(`install.${shown}`)}
        </Typography>
        {shown === "unsupported" && (
          <Box component="ol" sx={{ textAlign: "start", pl: 3, mt: 1.5, mb: 0, color: "text.secondary" }} data-testid="install-steps">
            {STEPS.map((s) => (
              <Typography component="li" variant="body2" key={s} sx={{ mb: 0.75 }}>
                {t(`install.steps.${s}`)}
              </Typography>
            ))}
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 3 }}>
        <Button onClick={() => dialogs.close()}>{t("common.close")}</Button>
        {shown === "ready" && (
          <Button variant="contained" onClick={() => void promptInstall().then(setOutcome)} data-testid="install-prompt">
            {t("install.prompt")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
