import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import GoogleIcon from "@mui/icons-material/Google";
import PersonOutlineIcon from "@mui/icons-material/PersonOutline";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { translateMessage } from "../i18n/index.ts";
import { codeProblem, emailProblem } from "../features/session/login-rules.ts";
import { useResendWait } from "../features/session/resend-wait.ts";
import { session, useSession } from "../features/session/session.ts";
import { accentGradient } from "../theme.ts";
import { dialogs } from "./dialog-store.ts";

/** SPEC.md §2 login dialog: email plus a verification code, guest login, or Google. */
export default function LoginDialog() {
  const { t } = useTranslation();
  const { user } = useSession();
  const revalidator = useRevalidator();
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [emailError, setEmailError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const { left: resendIn, start: setResendIn, waitFrom } = useResendWait();
  const [busy, setBusy] = useState<"send" | "login" | "guest" | "google" | null>(null);

  const show = (e: unknown) => setError(translateMessage(e instanceof Error ? e.message : String(e)));

  async function sendCode() {
    setError(null);
    const problem = emailProblem(email);
    setEmailError(problem && translateMessage(problem));
    if (problem) return;
    setBusy("send");
    try {
      const { resend_in } = await session.sendEmailCode(email.trim());
      setSent(true);
      setCodeError(null);
      setResendIn(resend_in);
    } catch (e) {
      waitFrom(e);
      show(e);
    } finally {
      setBusy(null);
    }
  }

  async function finish(action: () => Promise<unknown>, kind: "login" | "guest") {
    setError(null);
    setBusy(kind);
    try {
      await action();
      dialogs.close();
      revalidator.revalidate();
    } catch (e) {
      show(e);
      setBusy(null);
    }
  }

  function login() {
    const eProblem = emailProblem(email);
    const cProblem = codeProblem(code);
    setEmailError(eProblem && translateMessage(eProblem));
    setCodeError(cProblem && translateMessage(cProblem));
    if (eProblem || cProblem) return;
    void finish(() => session.emailLogin(email.trim(), code.trim()), "login");
  }

  async function google() {
    setError(null);
    setBusy("google");
    try {
      window.location.assign(await session.googleLoginUrl());
    } catch (e) {
      show(e);
      setBusy(null);
    }
  }

  return (
    <Dialog open onClose={() => dialogs.close()} maxWidth="xs" fullWidth data-testid="login-dialog">
      <IconButton onClick={() => dialogs.close()} aria-label={t("common.close")} sx={{ position: "absolute", right: 12, top: 12 }}>
        <CloseIcon />
      </IconButton>
      <DialogContent sx={{ pt: 4 }}>
        <Typography variant="h5" sx={{ fontWeight: 800 }}>
          {t("login.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5, mb: 3 }}>
          {user?.type === "visitor" ? t("login.keepCreations") : t("login.subtitle")}
        </Typography>
        <Box
          component="form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            login();
          }}
          sx={{ display: "grid", gap: 2 }}
        >
          <TextField
            label={t("login.email")}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setEmailError(null);
            }}
            error={emailError !== null}
            helperText={emailError ?? " "}
            slotProps={{ htmlInput: { "data-testid": "login-email" } }}
          />
          {/* the send button sits beside the field, not inside it: a label like "Код подтверждения" and a button like
              "Повторно через 60 с" do not both fit in one 250 px field on a phone; here the button wraps below instead */}
          <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "flex-start", columnGap: 1 }} data-testid="login-code-row">
            <TextField
              label={t("login.code")}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setCodeError(null);
              }}
              error={codeError !== null}
              helperText={codeError ?? (sent ? t("login.codeSent") : " ")}
              sx={{ flex: "1 1 150px" }}
              slotProps={{ htmlInput: { "data-testid": "login-code", maxLength: 6 } }}
            />
            <Button
              variant="outlined"
              onClick={() => void sendCode()}
              disabled={busy === "send" || resendIn > 0}
              data-testid="send-code"
              sx={{ flex: "0 0 auto", height: 56, whiteSpace: "nowrap" }}
            >
              {resendIn > 0 ? t("login.resendIn", { seconds: resendIn }) : sent ? t("login.resend") : t("login.sendCode")}
            </Button>
          </Box>
          {error && (
            <Alert severity="error" data-testid="login-error">
              {error}
            </Alert>
          )}
          <Button type="submit" variant="contained" size="large" disabled={busy !== null} data-testid="login-submit">
            {busy === "login" ? <CircularProgress size={22} color="inherit" /> : t("login.submit")}
          </Button>
        </Box>
        <Divider sx={{ my: 3, color: "text.secondary", fontSize: 13 }}>{t("login.or")}</Divider>
        <Box sx={{ display: "grid", gap: 1.5, pb: 1 }}>
          <Button variant="outlined" size="large" startIcon={<GoogleIcon />} onClick={() => void google()} disabled={busy !== null} data-testid="login-google">
            {t("login.google")}
          </Button>
          {!user && (
            <Button
              size="large"
              startIcon={<PersonOutlineIcon />}
              onClick={() => void finish(() => session.guestLogin(), "guest")}
              disabled={busy !== null}
              data-testid="login-guest"
              sx={{
                border: "1px solid transparent",
                backgroundImage: `linear-gradient(#14141f,#14141f), ${accentGradient}`,
                backgroundOrigin: "border-box",
                backgroundClip: "padding-box, border-box",
              }}
            >
              {t("login.guest")}
            </Button>
          )}
        </Box>
      </DialogContent>
    </Dialog>
  );
}
