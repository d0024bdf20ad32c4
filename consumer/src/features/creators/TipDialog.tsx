import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { TIP_MESSAGE_MAX } from "../../../../server/src/contract/tips.ts";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { NOT_ENOUGH_CREDITS } from "../generation/generation.api.ts";
import { session } from "../session/session.ts";
import { creatorsApi, type TipSettings } from "./creators.api.ts";

type Step = "choose" | "confirm" | "sent";

/**
 * A tip to a creator (docs/decisions/304), from their page or one of its library items: an amount (a preset or a
 * custom one within staff's limits) and an optional message, then a confirmation, then the success state. The tap's
 * key is made when the dialog opens, so a double click or a retry after a lost answer is one tip.
 */
export default function TipDialog({ homeLink, title, itemId, onClose }: { homeLink: string; title: string; itemId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<TipSettings | null>(null);
  const [amount, setAmount] = useState("");
  const [message, setMessage] = useState("");
  const [step, setStep] = useState<Step>("choose");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [key] = useState(() => crypto.randomUUID());

  useEffect(() => {
    creatorsApi.tipSettings().then(
      (s) => {
        setSettings(s);
        setAmount(String(s.presets[0]));
      },
      (e: Error) => setError(translateMessage(e.message)),
    );
  }, []);

  const value = Number(amount);
  const valid = settings !== null && Number.isInteger(value) && value >= settings.min && value <= settings.max;

  async function send() {
    setBusy(true);
    setError(null);
    try {
      await creatorsApi.tip({ home_link: homeLink, amount: value, message: message.trim() || undefined, library_item_id: itemId, idempotency_key: key });
      setStep("sent");
      void session.refreshBalance();
    } catch (e) {
      const text = (e as Error).message;
      // as generation and chat do, a short balance opens the buy dialog: in this one's place, one dialog at a time
      if (text === NOT_ENOUGH_CREDITS) {
        onClose();
        dialogs.open("buyCredits");
        return;
      }
      setError(translateMessage(text));
      setStep("choose");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="tip-dialog">
      <DialogTitle sx={{ overflowWrap: "anywhere" }}>{t("creators.tipTitle", { name: title })}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 1.5 }}>
        {error && (
          <Alert severity="error" data-testid="tip-error">
            {error}
          </Alert>
        )}
        {step === "sent" && (
          <Alert severity="success" data-testid="tip-sent">
            {t("creators.tipSent", { count: value, name: title })}
          </Alert>
        )}
        {step === "confirm" && <Typography data-testid="tip-confirm-text">{t("creators.tipConfirm", { count: value, name: title })}</Typography>}
        {step === "choose" && settings && (
          <>
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1 }} role="group" aria-label={t("creators.tipAmount")}>
              {settings.presets.map((p) => (
                <Button key={p} variant={value === p ? "contained" : "outlined"} onClick={() => setAmount(String(p))} data-testid="tip-preset">
                  {t("creators.credits", { count: p })}
                </Button>
              ))}
            </Box>
            <TextField
              label={t("creators.tipAmount")}
              value={amount}
              onChange={(e) => setAmount(e.target.value.replace(/\D/g, ""))}
              helperText={t("creators.tipRange", { min: settings.min, max: settings.max })}
              error={amount !== "" && !valid}
              slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "tip-amount" } }}
            />
            <TextField
              label={t("creators.tipMessage")}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              multiline
              minRows={2}
              slotProps={{ htmlInput: { maxLength: TIP_MESSAGE_MAX, "data-testid": "tip-message" } }}
            />
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap", gap: 1 }}>
        <Button onClick={step === "confirm" ? () => setStep("choose") : onClose} data-testid="tip-back">
          {t(step === "sent" ? "creators.tipClose" : step === "confirm" ? "creators.tipBack" : "creators.tipCancel")}
        </Button>
        {step === "choose" && (
          <Button variant="contained" disabled={!valid} onClick={() => setStep("confirm")} data-testid="tip-next">
            {t("creators.tipNext")}
          </Button>
        )}
        {step === "confirm" && (
          <Button variant="contained" disabled={busy} onClick={() => void send()} data-testid="tip-send">
            {t("creators.tipSend", { count: value })}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
