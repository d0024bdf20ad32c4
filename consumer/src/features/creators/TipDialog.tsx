import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import TextField from "@mui/material/TextField";
import { useTranslation } from "react-i18next";
import { TIP_MESSAGE_MAX } from "../../../../server/src/contract/tips.ts";
import { translateMessage } from "../../i18n/index.ts";
import { creatorsApi, type TipSettings } from "./creators.api.ts";
import { useSpendConfirm } from "./SpendConfirm.tsx";

/**
 * A tip to a creator (docs/decisions/304), from their page or one of its library items: an amount (a preset or a
 * custom one within staff's limits) and an optional message, then the confirmation every spend on a creator has, then
 * the success state. The tap's key is made when the dialog opens, so a double click or a retry after a lost answer is
 * one tip.
 */
export default function TipDialog({ homeLink, title, itemId, onClose }: { homeLink: string; title: string; itemId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<TipSettings | null>(null);
  const [amount, setAmount] = useState("");
  const [message, setMessage] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [key] = useState(() => crypto.randomUUID());
  const spend = useSpendConfirm();

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

  const confirm = () =>
    spend.confirm({
      what: t("creators.spend.tip", { name: title }),
      amount: value,
      pay: async () => {
        await creatorsApi.tip({ home_link: homeLink, amount: value, message: message.trim() || undefined, library_item_id: itemId, idempotency_key: key });
        setSent(true);
      },
      // one dialog at a time: a short balance's buy dialog takes this one's place
      onShort: () => onClose(),
    });

  return (
    <>
      <Dialog open={!spend.dialog} onClose={onClose} maxWidth="xs" fullWidth data-testid="tip-dialog">
        <DialogTitle sx={{ overflowWrap: "anywhere" }}>{t("creators.tipTitle", { name: title })}</DialogTitle>
        <DialogContent sx={{ display: "grid", gap: 1.5 }}>
          {error && (
            <Alert severity="error" data-testid="tip-error">
              {error}
            </Alert>
          )}
          {sent && (
            <Alert severity="success" data-testid="tip-sent">
              {t("creators.tipSent", { count: value, name: title })}
            </Alert>
          )}
          {!sent && settings && (
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
          <Button onClick={onClose} data-testid="tip-back">
            {t(sent ? "creators.tipClose" : "creators.tipCancel")}
          </Button>
          {!sent && (
            <Button variant="contained" disabled={!valid} onClick={confirm} data-testid="tip-next">
              {t("creators.tipNext")}
            </Button>
          )}
        </DialogActions>
      </Dialog>
      {spend.dialog}
    </>
  );
}
