import { useState } from "react";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { notifications } from "../site/notifications.ts";
import { REPORT_REASONS, type ReportReason, type ReportTarget } from "../../../../server/src/contract/moderation.ts";
import { reportContent } from "./report.api.ts";

/** `onSent` runs after the report is filed (an underage report has then already hidden the content). */
export default function ReportDialog({ target, onClose, onSent }: { target: { type: ReportTarget; id: number }; onClose: () => void; onSent?: () => void }) {
  const { t } = useTranslation();
  // nothing is chosen for the reporter: the gravest reason is acted on at once, so it must be a deliberate tap
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    if (!reason) {
      setError(t("report.chooseReason"));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await reportContent({ target_type: target.type, target_id: target.id, reason, details: details.trim() || undefined });
      notifications.show(t("report.thanks"), "success");
      onSent?.();
      onClose();
    } catch (e) {
      setError(translateMessage((e as Error).message));
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="report-dialog">
      <DialogTitle>{t("report.title")}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t("report.body")}
        </Typography>
        <RadioGroup
          value={reason ?? ""}
          onChange={(e) => {
            setReason(e.target.value as ReportReason);
            setError(null);
          }}
        >
          {REPORT_REASONS.map((r) => (
            <FormControlLabel key={r} value={r} control={<Radio />} label={t(`report.reason.${r}`)} data-testid={`report-${r}`} />
          ))}
        </RadioGroup>
        <TextField
          fullWidth
          multiline
          minRows={2}
          sx={{ mt: 1.5 }}
          label={t("report.details")}
          value={details}
          onChange={(e) => setDetails(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 1000 } }}
        />
        {error && (
          <Alert severity="error" sx={{ mt: 1.5 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button variant="contained" color="error" disabled={busy} onClick={() => void send()} data-testid="report-send">
          {t("report.send")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
