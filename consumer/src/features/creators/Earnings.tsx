import { useCallback, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { EarningsView } from "../../../../server/src/contract/creator-payouts.ts";
import { translateMessage } from "../../i18n/index.ts";
import { session } from "../session/session.ts";
import { payoutsApi, type PayoutView } from "./payouts.api.ts";

const FIGURES = [
  ["earned", "earned"],
  ["in_escrow", "inEscrow"],
  ["in_dispute", "inDispute"],
  ["payout_pending", "payoutPending"],
  ["paid_out", "paidOut"],
  ["payable", "payable"],
] as const satisfies readonly (readonly [keyof EarningsView, string])[];

/**
 * The creator's earnings (credits earned, held in escrow, in dispute, paid out, payable now) and the payout form:
 * the asked credits leave the balance at once and come back if staff reject the payout.
 */
export function Earnings() {
  const { t } = useTranslation();
  const [figures, setFigures] = useState<EarningsView | null>(null);
  const [payouts, setPayouts] = useState<PayoutView[]>([]);
  const [amount, setAmount] = useState("");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const load = useCallback(() => {
    payoutsApi.earnings().then(setFigures, () => setFigures(null));
    payoutsApi.payouts().then(setPayouts, () => setPayouts([]));
  }, []);
  useEffect(load, [load]);
  if (!figures) return null;

  async function ask() {
    setStatus(null);
    setBusy(true);
    try {
      const p = await payoutsApi.request(Number(amount), key);
      setStatus({ ok: true, text: t("creators.payoutSent", { amount: p.amount }) });
      setAmount("");
      setKey(crypto.randomUUID());
      load();
      void session.refreshBalance();
    } catch (e) {
      setStatus({ ok: false, text: translateMessage((e as Error).message) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box component="section" data-testid="creator-earnings" sx={{ display: "grid", gap: 1.5, p: 2, border: 1, borderColor: "divider", borderRadius: 2 }}>
      <Typography variant="h6" component="h2">
        {t("creators.earningsTitle")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", sm: "repeat(3, minmax(0, 1fr))" }, gap: 1 }}>
        {FIGURES.map(([field, label]) => (
          <Box
            key={field}
            data-testid={`earnings-${field}`}
            sx={{ p: 1, borderRadius: 1.5, bgcolor: field === "payable" ? "action.selected" : "action.hover", minWidth: 0 }}
          >
            <Typography variant="caption" color="text.secondary" sx={{ display: "block", overflowWrap: "anywhere" }}>
              {t(`creators.earnings.${label}`)}
            </Typography>
            <Typography sx={{ fontWeight: 600 }}>{t("creators.credits", { count: figures[field] })}</Typography>
          </Box>
        ))}
      </Box>
      {figures.shortfall > 0 && (
        <Alert severity="warning" data-testid="earnings-shortfall">
          {t("creators.earnings.shortfall", { amount: figures.shortfall })}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary">
        {t("creators.payoutHelp", { min: figures.min_payout })}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "flex-start" }}>
        <TextField
          size="small"
          label={t("creators.payoutAmount")}
          value={amount}
          onChange={(e) => setAmount(e.target.value.replace(/\D/g, ""))}
          sx={{ flex: "1 1 140px" }}
          slotProps={{ htmlInput: { inputMode: "numeric", "data-testid": "payout-amount" } }}
        />
        <Button variant="contained" disabled={busy || !amount || figures.payable < figures.min_payout} onClick={() => void ask()} data-testid="payout-send">
          {t("creators.payoutSend")}
        </Button>
      </Box>
      {status && (
        <Alert severity={status.ok ? "success" : "error"} data-testid="payout-status">
          {status.text}
        </Alert>
      )}
      {payouts.length > 0 && (
        <Box sx={{ display: "grid", gap: 1 }} data-testid="payout-list">
          <Typography variant="subtitle2" component="h3">
            {t("creators.payoutsTitle")}
          </Typography>
          {payouts.map((p) => (
            <Box
              key={p.id}
              data-testid="payout-row"
              data-status={p.status}
              sx={{ display: "grid", gap: 0.5, p: 1, border: 1, borderColor: "divider", borderRadius: 1.5 }}
            >
              <Box sx={{ display: "flex", justifyContent: "space-between", gap: 1, alignItems: "center" }}>
                <Chip
                  size="small"
                  label={t(`creators.payoutStatus.${p.status}`)}
                  color={p.status === "approved" ? "success" : p.status === "requested" ? "primary" : "default"}
                />
                <Typography variant="body2">{t("creators.credits", { count: p.amount })}</Typography>
              </Box>
              {p.reference && (
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                  {t("creators.payoutReference", { reference: p.reference })}
                </Typography>
              )}
              {p.reject_reason && (
                <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
                  {t("creators.payoutRejected", { reason: p.reject_reason })}
                </Typography>
              )}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
