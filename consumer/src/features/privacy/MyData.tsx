import { useCallback, useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { useResendWait } from "../session/resend-wait.ts";
import { privacyApi, type PrivacyStatus } from "./privacy.api.ts";

/** While an export is being prepared the section looks again this often (the job is usually done in seconds). */
const POLL_MS = 3000;

function useDate() {
  const { i18n } = useTranslation();
  return (iso: string | Date) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));
}

/**
 * A button's handler: runs the call, then `then` (by default the section's reload); a refusal is kept, translated, to
 * show beside the buttons.
 */
function useAction(reload: () => void) {
  const [error, setError] = useState<string | null>(null);
  const act =
    (run: () => Promise<unknown>, then: () => void = reload) =>
    () => {
      setError(null);
      run()
        .then(then)
        .catch((err: Error) => setError(translateMessage(err.message)));
    };
  return [error, act, setError] as const;
}

/** My data out (GDPR Art. 15, 20; decision 261): ask, wait, download through a short-lived signed link. */
function ExportPart({ status, reload }: { status: PrivacyStatus; reload: () => void }) {
  const { t } = useTranslation();
  const date = useDate();
  const [error, act] = useAction(reload);
  const e = status.export;
  const busy = e?.status === "queued" || e?.status === "running";
  // one a day (decision 372): the wait is shown instead of a button the server would refuse
  const waitUntil = !busy && status.next_export_at ? status.next_export_at : null;
  const download = (id: number) => act(async () => window.location.assign((await privacyApi.exportLink(id)).url));
  return (
    <Paper component="section" sx={{ p: { xs: 2, md: 3 }, borderRadius: 4, display: "grid", gap: 1.5 }} data-testid="mydata-export">
      <Typography variant="h6" component="h2">
        {t("privacy.export.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t("privacy.export.intro")}
      </Typography>
      {e && (
        <Typography data-testid="mydata-export-status">{t(`privacy.export.status.${e.status}`, { date: e.expires_at ? date(e.expires_at) : "" })}</Typography>
      )}
      {waitUntil && (
        <Typography variant="body2" color="text.secondary" data-testid="mydata-export-next">
          {t("privacy.export.nextAt", { date: date(waitUntil) })}
        </Typography>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        {e?.status === "ready" && (
          <Button variant="contained" onClick={download(e.id)} data-testid="mydata-download">
            {t("privacy.export.download")}
          </Button>
        )}
        <Button
          variant={e?.status === "ready" ? "outlined" : "contained"}
          disabled={busy || waitUntil !== null}
          onClick={act(privacyApi.requestExport)}
          data-testid="mydata-export-request"
        >
          {busy ? <CircularProgress size={20} /> : t("privacy.export.request")}
        </Button>
      </Box>
    </Paper>
  );
}

/** The deletion code's button: send, then send again once its own window has passed, the wait counted down on it. */
function SendCodeButton({ sent, onSent, onError }: { sent: boolean; onSent: () => void; onError: (e: unknown) => void }) {
  const { t } = useTranslation();
  const { left, start, waitFrom } = useResendWait();
  const [busy, setBusy] = useState(false);
  const send = () => {
    setBusy(true);
    privacyApi
      .sendDeletionCode()
      .then((r) => {
        start(r.resend_in);
        onSent();
      })
      // within the window the wait is shown on the button; an earlier code is still the one to enter
      .catch((e: unknown) => (waitFrom(e) ? onSent() : onError(e)))
      .finally(() => setBusy(false));
  };
  return (
    <Button
      variant="outlined"
      color="error"
      disabled={busy || left > 0}
      onClick={send}
      data-testid="mydata-delete-code"
      data-wait={left}
      sx={{ justifySelf: "start" }}
    >
      {left > 0 ? t("privacy.delete.resendIn", { seconds: left }) : sent ? t("privacy.delete.resend") : t("privacy.delete.sendCode")}
    </Button>
  );
}

/** My account gone (GDPR Art. 17; decision 262): the emailed code (or, without an email, a tick), then the grace period with its undo. */
function DeletePart({ status, reload }: { status: PrivacyStatus; reload: () => void }) {
  const { t } = useTranslation();
  const date = useDate();
  const [code, setCode] = useState("");
  const [codeSent, setCodeSent] = useState(false);
  const [error, act, setError] = useAction(reload);
  const pending = status.deletion?.status === "pending" ? status.deletion : null;
  const byEmail = status.confirm_by === "email";
  const confirm = byEmail ? () => privacyApi.requestDeletion({ code }) : () => privacyApi.requestDeletion({ confirm: true });
  return (
    <Paper component="section" sx={{ p: { xs: 2, md: 3 }, borderRadius: 4, display: "grid", gap: 1.5 }} data-testid="mydata-delete">
      <Typography variant="h6" component="h2">
        {t("privacy.delete.title")}
      </Typography>
      {pending ? (
        <>
          <Alert severity="warning" data-testid="mydata-delete-pending">
            {t("privacy.delete.pending", { date: date(pending.erase_after) })}
          </Alert>
          <Button variant="contained" onClick={act(privacyApi.undoDeletion)} data-testid="mydata-delete-undo" sx={{ justifySelf: "start" }}>
            {t("privacy.delete.undo")}
          </Button>
        </>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary">
            {t("privacy.delete.intro")}
          </Typography>
          {byEmail && (
            <SendCodeButton
              sent={codeSent}
              onSent={() => {
                setError(null);
                setCodeSent(true);
              }}
              onError={(e) => setError(translateMessage(e instanceof Error ? e.message : String(e)))}
            />
          )}
          {byEmail && codeSent && (
            <Typography variant="body2" data-testid="mydata-delete-code-sent">
              {t("privacy.delete.codeSent")}
            </Typography>
          )}
          {(!byEmail || codeSent) && (
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "center" }}>
              {byEmail && (
                <TextField
                  size="small"
                  label={t("privacy.delete.code")}
                  value={code}
                  onChange={(ev) => setCode(ev.target.value)}
                  inputProps={{ inputMode: "numeric", "data-testid": "mydata-delete-code-input" }}
                />
              )}
              <Button variant="contained" color="error" onClick={act(confirm)} data-testid="mydata-delete-confirm">
                {t("privacy.delete.confirm")}
              </Button>
            </Box>
          )}
        </>
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Paper>
  );
}

/**
 * The "My data" section, self-contained (issue 30 item 6): an account area may place it as it is. It loads its own
 * status and, while an export is being prepared, looks again until it is ready.
 */
export function MyData() {
  const [status, setStatus] = useState<PrivacyStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    privacyApi
      .status()
      .then(setStatus)
      .catch((err: Error) => setError(translateMessage(err.message)));
  }, []);
  useEffect(reload, [reload]);
  const preparing = status?.export?.status === "queued" || status?.export?.status === "running";
  useEffect(() => {
    if (!preparing) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [preparing, reload]);
  if (error) return <Alert severity="error">{error}</Alert>;
  if (!status) return <CircularProgress />;
  return (
    <Box sx={{ display: "grid", gap: 2 }} data-testid="mydata">
      <ExportPart status={status} reload={reload} />
      <DeletePart status={status} reload={reload} />
    </Box>
  );
}
