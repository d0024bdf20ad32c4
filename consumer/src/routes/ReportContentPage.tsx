import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { REPORT_REASONS, type ReportReason } from "../../../server/src/contract/moderation.ts";
import { emailProblem } from "../features/session/login-rules.ts";
import { fileNotice, type NoticeForm } from "../features/notices/notices.api.ts";
import { ApiError } from "../lib/api-client.ts";
import { translateMessage } from "../i18n/index.ts";

const EMPTY: NoticeForm = { url: "", reason: "non_consensual", details: "", name: "", email: "", removal: true, sworn: false };

/**
 * /report-content: the public notice-and-action form (issue 19). No account is needed; the link is resolved to the
 * content on the server, and a link that names nothing public answers like one that names nothing at all.
 */
export function Component() {
  const { t } = useTranslation();
  const [form, setForm] = useState<NoticeForm>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [sentId, setSentId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof NoticeForm>(key: K, value: NoticeForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  async function send() {
    if (!form.url.trim()) return setProblem(t("notices.form.urlRequired"));
    const emailIssue = emailProblem(form.email);
    if (emailIssue) return setProblem(translateMessage(emailIssue));
    if (form.removal && !form.sworn) return setProblem(t("notices.form.swornRequired"));
    setBusy(true);
    setProblem(null);
    try {
      const { id } = await fileNotice({ ...form, url: form.url.trim(), email: form.email.trim() });
      setSentId(id);
    } catch (e) {
      setProblem(e instanceof ApiError && e.code === 404 ? t("notices.form.notFound") : translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ maxWidth: 720, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }} data-testid="report-content-page">
      <Typography variant="h4" component="h1" sx={{ fontSize: { xs: 26, md: 34 }, overflowWrap: "anywhere" }}>
        {t("notices.form.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, mb: 3, lineHeight: 1.7 }}>
        {t("notices.form.intro")}
      </Typography>
      {sentId !== null ? (
        <Alert severity="success" data-testid="notice-sent">
          {t("notices.form.sent", { id: sentId })}
        </Alert>
      ) : (
        <Paper sx={{ p: { xs: 2, md: 3 }, borderRadius: 4, display: "grid", gap: 2 }}>
          <TextField
            label={t("notices.form.url")}
            helperText={t("notices.form.urlHelp")}
            value={form.url}
            onChange={(e) => set("url", e.target.value)}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 2000, "data-testid": "notice-url" } }}
          />
          <TextField
            select
            label={t("notices.form.reasonLabel")}
            value={form.reason}
            onChange={(e) => set("reason", e.target.value as ReportReason)}
            fullWidth
            slotProps={{ select: { SelectDisplayProps: { "data-testid": "notice-reason" } as object } }}
          >
            {REPORT_REASONS.map((r) => (
              <MenuItem key={r} value={r} data-testid={`notice-reason-${r}`} sx={{ whiteSpace: "normal" }}>
                {t(`notices.reason.${r}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t("notices.form.details")}
            value={form.details}
            onChange={(e) => set("details", e.target.value)}
            multiline
            minRows={3}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 2000, "data-testid": "notice-details" } }}
          />
          <TextField
            label={t("notices.form.name")}
            value={form.name}
            onChange={(e) => set("name", e.target.value)}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 200, "data-testid": "notice-name" } }}
          />
          <TextField
            label={t("notices.form.email")}
            type="email"
            value={form.email}
            onChange={(e) => set("email", e.target.value)}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 254, "data-testid": "notice-email" } }}
          />
          <FormControlLabel
            control={<Checkbox checked={form.removal} onChange={(e) => set("removal", e.target.checked)} data-testid="notice-removal" />}
            label={t("notices.form.removal")}
          />
          <FormControlLabel
            sx={{ alignItems: "flex-start" }}
            control={<Checkbox checked={form.sworn} onChange={(e) => set("sworn", e.target.checked)} data-testid="notice-sworn" sx={{ mt: -0.5 }} />}
            label={
              <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
                {t("notices.form.sworn")}
              </Typography>
            }
          />
          {problem && (
            <Alert severity="error" data-testid="notice-problem">
              {problem}
            </Alert>
          )}
          <Box>
            <Button variant="contained" color="error" size="large" disabled={busy} onClick={() => void send()} data-testid="notice-send">
              {t("notices.form.send")}
            </Button>
          </Box>
        </Paper>
      )}
    </Box>
  );
}
