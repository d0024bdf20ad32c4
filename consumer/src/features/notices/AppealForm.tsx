import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { appealDecision } from "./notices.api.ts";

const MIN_TEXT = 10;

/**
 * How to appeal one decision, and the appeal itself: the person says why it is wrong; a different moderator reviews
 * it. Once appealed, the appeal's state (and the reviewer's answer) is shown instead.
 */
export function AppealForm({
  id,
  appealKey,
  status,
  answer,
  reversed,
}: {
  id: number;
  appealKey: string;
  status: string | null;
  answer?: string | null;
  reversed: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [sent, setSent] = useState<string | null>(status);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (reversed && !sent) return null;
  if (sent) {
    return (
      <Box sx={{ display: "grid", gap: 0.5 }} data-testid="appeal-status">
        <Alert severity={sent === "reversed" ? "success" : "info"}>{t(`notices.appeal.status.${sent}`)}</Alert>
        {answer ? (
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
            {t("notices.appeal.answer", { text: answer })}
          </Typography>
        ) : null}
      </Box>
    );
  }

  async function send() {
    if (text.trim().length < MIN_TEXT) return setError(t("notices.appeal.tooShort"));
    setBusy(true);
    setError(null);
    try {
      await appealDecision(id, appealKey, text.trim());
      setSent("open");
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid="appeal-form">
      <Typography variant="body2" color="text.secondary">
        {t("notices.appeal.how")}
      </Typography>
      <TextField
        multiline
        minRows={3}
        fullWidth
        label={t("notices.appeal.label")}
        value={text}
        onChange={(e) => setText(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 4000, "data-testid": "appeal-text" } }}
      />
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button variant="contained" disabled={busy} onClick={() => void send()} data-testid="appeal-send">
          {t("notices.appeal.send")}
        </Button>
      </Box>
    </Box>
  );
}
