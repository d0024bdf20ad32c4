import { useState } from "react";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { NOT_ENOUGH_CREDITS } from "../generation/generation.api.ts";
import { session, useSession } from "../session/session.ts";
import type { Spend } from "./spend.ts";

/**
 * The one confirmation of every spend of credits on a creator — a tip, a membership, a locked message, a custom request:
 * what it buys, how much leaves the balance now (and the balance after), and for a membership that it renews, when
 * and for how much. Nothing is charged before "Pay". A short balance opens the buy dialog, as every spend does.
 */
export default function SpendConfirmDialog({ spend, onClose }: { spend: Spend; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const points = useSession().user?.points;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { amount } = spend;

  async function pay() {
    setBusy(true);
    setError(null);
    try {
      await spend.pay();
      void session.refreshBalance();
      onClose();
    } catch (e) {
      const text = (e as Error).message;
      if (text === NOT_ENOUGH_CREDITS) {
        onClose();
        spend.onShort(translateMessage(text));
        dialogs.open("buyCredits");
        return;
      }
      setError(translateMessage(text));
      setBusy(false);
    }
  }

  const date = (d: Date) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(d);
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth data-testid="spend-confirm" data-amount={amount}>
      <DialogTitle>{t("creators.spend.title", { count: amount })}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 1.5 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }} data-testid="spend-what">
          {spend.what}
        </Typography>
        <Typography data-testid="spend-now">{t(spend.held ? "creators.spend.held" : "creators.spend.now", { count: amount })}</Typography>
        {spend.renews && (
          <Alert severity="info" data-testid="spend-renews">
            {t("creators.spend.renews", { count: amount, days: spend.renews.days, date: date(spend.renews.next) })}
          </Alert>
        )}
        {points !== undefined && (
          <Typography variant="body2" color="text.secondary" data-testid="spend-balance">
            {t("creators.spend.balance", { before: points, after: points - amount })}
          </Typography>
        )}
        {error && (
          <Alert severity="error" data-testid="spend-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap", gap: 1 }}>
        <Button onClick={onClose} disabled={busy} data-testid="spend-back">
          {t("creators.spend.back")}
        </Button>
        <Button variant="contained" disabled={busy} onClick={() => void pay()} data-testid="spend-pay">
          {t("creators.spend.pay", { count: amount })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
