import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useParams } from "react-router";
import { emailReceipt, receipt, type Receipt } from "../features/account/account.api.ts";
import { useSession } from "../features/session/session.ts";
import { translateMessage } from "../i18n/index.ts";

/** /account/receipt/:orderId: one paid order's receipt, printable, and sent by email where the account has one. */
export function Component() {
  const { t, i18n } = useTranslation();
  const { orderId } = useParams();
  const { user } = useSession();
  const [r, setR] = useState<Receipt | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  useEffect(() => {
    receipt(Number(orderId))
      .then(setR)
      .catch((e: Error) => setError(translateMessage(e.message)));
  }, [orderId]);

  async function send(id: number) {
    setError(null);
    try {
      setSent((await emailReceipt(id)).sent_to);
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }

  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
  const rows: Array<[string, string]> = r
    ? [
        [t("account.receipt.order"), r.order_no],
        [t("account.receipt.item"), `${r.product_name} × ${r.quantity}`],
        [t("account.receipt.credits"), String(r.credits + r.bonus_credits)],
        [t("account.receipt.paid"), r.price_text],
        [t("account.receipt.provider"), t(`payments.provider.${r.provider}`, { defaultValue: r.provider })],
        [t("account.receipt.date"), date(r.paid_at)],
      ]
    : [];
  return (
    <Box sx={{ maxWidth: 560, mx: "auto", px: 2, py: { xs: 3, md: 5 } }} data-testid="receipt-page">
      <Button component={RouterLink} to="/account#purchases" size="small" sx={{ mb: 1, displayPrint: "none" }}>
        {t("account.receipt.back")}
      </Button>
      {error && <Alert severity="error">{error}</Alert>}
      {r && (
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, borderRadius: 3 }} data-testid="receipt" data-refunded={r.refunded}>
          <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap", mb: 2 }}>
            <Typography variant="h5" component="h1" sx={{ flex: "1 1 auto" }}>
              {t("account.receipt.title")}
            </Typography>
            {r.refunded && <Chip color="info" label={t("account.receipt.refunded", { amount: r.refunded_text })} data-testid="receipt-refunded" />}
          </Box>
          <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "auto 1fr", gap: "6px 16px", m: 0 }}>
            {rows.map(([label, value]) => (
              <Box key={label} sx={{ display: "contents" }}>
                <Typography component="dt" color="text.secondary" variant="body2">
                  {label}
                </Typography>
                <Typography component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: "anywhere" }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", mt: 3, displayPrint: "none" }}>
            <Button variant="outlined" onClick={() => window.print()}>
              {t("account.receipt.print")}
            </Button>
            {user?.email && (
              <Button variant="contained" onClick={() => void send(r.order_id)} data-testid="receipt-email">
                {t("account.receipt.email")}
              </Button>
            )}
          </Box>
          {sent && (
            <Alert severity="success" sx={{ mt: 2 }} data-testid="receipt-sent">
              {t("account.receipt.sent", { email: sent })}
            </Alert>
          )}
        </Paper>
      )}
    </Box>
  );
}
