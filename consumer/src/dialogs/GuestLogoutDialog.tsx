import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { session } from "../features/session/session.ts";
import { useGuestBelongings } from "../features/session/guest-logout.ts";
import { dialogs } from "./dialog-store.ts";

/**
 * Before a guest who holds something logs out (issue 46 item 1): what will be lost for good, and the way to keep it —
 * saving the account with an email (the login dialog signs in with the guest's token, so everything moves along).
 */
export default function GuestLogoutDialog() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const held = useGuestBelongings();
  const [busy, setBusy] = useState(false);
  const lost = held
    ? [
        held.credits > 0 && t("saveAccount.logoutCredits", { count: held.credits }),
        held.results > 0 && t("saveAccount.logoutResults", { count: held.results }),
        held.plan && t("saveAccount.logoutPlan"),
        held.creator_page && t("saveAccount.logoutPage"),
      ].filter((x): x is string => typeof x === "string")
    : [];
  const logOutAnyway = () => {
    setBusy(true);
    void session.logout().finally(() => {
      dialogs.close();
      navigate("/home");
    });
  };
  return (
    <Dialog open onClose={() => dialogs.close()} maxWidth="xs" fullWidth data-testid="guest-logout">
      <DialogTitle sx={{ fontWeight: 800 }}>{t("saveAccount.logoutTitle")}</DialogTitle>
      <DialogContent>
        <Typography>{t("saveAccount.logoutBody")}</Typography>
        {lost.length > 0 && (
          <Box component="ul" sx={{ mt: 1.5, mb: 0, pl: 3 }} data-testid="guest-logout-lost">
            {lost.map((line) => (
              <Typography component="li" key={line} sx={{ fontWeight: 700 }}>
                {line}
              </Typography>
            ))}
          </Box>
        )}
      </DialogContent>
      {/* stacked, the keeping choice first: side by side at 360 px the labels would break inside words */}
      <DialogActions sx={{ flexDirection: "column", alignItems: "stretch", gap: 1, px: 3, pb: 2.5, "& > :not(style) ~ :not(style)": { ml: 0 } }}>
        <Button variant="contained" onClick={() => dialogs.open("login")} disabled={busy} data-testid="guest-logout-save">
          {t("saveAccount.action")}
        </Button>
        <Button color="error" onClick={logOutAnyway} disabled={busy} data-testid="guest-logout-anyway">
          {t("saveAccount.logoutAnyway")}
        </Button>
        <Button color="inherit" onClick={() => dialogs.close()} disabled={busy} data-testid="guest-logout-cancel">
          {t("common.cancel")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
