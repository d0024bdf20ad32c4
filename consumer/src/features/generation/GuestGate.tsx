import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { session } from "../session/session.ts";

/** Shown instead of the creating tools when nobody is signed in: try as a guest or log in. */
export function GuestGate() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  return (
    <Paper sx={{ p: 4, borderRadius: 5, textAlign: "center" }} data-testid="guest-gate">
      <Typography variant="h6">{t("studio.signInTitle")}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t("studio.signInBody")}
      </Typography>
      <Box sx={{ display: "flex", gap: 1.5, justifyContent: "center", mt: 3, flexWrap: "wrap" }}>
        <Button
          variant="contained"
          size="large"
          disabled={busy}
          data-testid="studio-try-guest"
          onClick={() => {
            setBusy(true);
            void session
              .guestLogin()
              .then(() => revalidator.revalidate())
              .finally(() => setBusy(false));
          }}
        >
          {t("home.tryFree")}
        </Button>
        <Button variant="outlined" size="large" onClick={() => dialogs.open("login")}>
          {t("login.action")}
        </Button>
      </Box>
    </Paper>
  );
}
