import { useState } from "react";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { accentGradient } from "../theme.ts";
import { ageGate } from "./dialog-store.ts";

/** SPEC.md §1: confirm 18+ to enter, decline to leave. The answer is remembered on this device. */
export default function AgeGateDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(() => !ageGate.confirmed());
  if (!open) return null;
  return (
    <Dialog
      open
      maxWidth="xs"
      fullWidth
      aria-labelledby="age-gate-title"
      data-testid="age-gate"
      slotProps={{ backdrop: { sx: { backdropFilter: "blur(18px)", bgcolor: "rgba(6,6,10,0.8)" } } }}
    >
      <DialogContent sx={{ textAlign: "center", pt: 4 }}>
        <Typography sx={{ fontSize: 44, fontWeight: 800, background: accentGradient, WebkitBackgroundClip: "text", color: "transparent", lineHeight: 1 }}>
          {t("ageGate.badge")}
        </Typography>
        <Typography id="age-gate-title" variant="h5" sx={{ mt: 2 }}>
          {t("ageGate.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          {t("ageGate.body")}
        </Typography>
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 2 }}>
          {t("ageGate.warning")}
        </Typography>
      </DialogContent>
      <DialogActions sx={{ flexDirection: "column", gap: 1, px: 3, pb: 3 }}>
        <Button
          fullWidth
          variant="contained"
          size="large"
          data-testid="age-confirm"
          onClick={() => {
            ageGate.confirm();
            setOpen(false);
          }}
        >
          {t("ageGate.confirm")}
        </Button>
        <Button
          fullWidth
          color="inherit"
          data-testid="age-decline"
          sx={{ ml: "0 !important", color: "text.secondary" }}
          onClick={() => window.location.replace("about:blank")}
        >
          {t("ageGate.decline")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
