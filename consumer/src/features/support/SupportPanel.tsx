import { useState, type FormEvent } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import SendIcon from "@mui/icons-material/Send";
import { useTranslation } from "react-i18next";
import { SUPPORT_MESSAGE_MAX } from "../../../../server/src/contract/support.ts";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { ApiError } from "../../lib/api-client.ts";
import { translateMessage } from "../../i18n/index.ts";
import { session, useSession } from "../session/session.ts";
import { sendSupportMessage, type SupportAnswer, type SupportMessage } from "./support.api.ts";

/** One message: the person's on the right, support's on the left. */
function Message({ m }: { m: SupportMessage }) {
  const { t, i18n } = useTranslation();
  const mine = m.author === "person";
  return (
    <Box sx={{ alignSelf: mine ? "flex-end" : "flex-start", maxWidth: "85%" }} data-testid={`support-message-${m.author}`}>
      <Box
        sx={{
          px: 1.5,
          py: 1,
          borderRadius: 3,
          bgcolor: mine ? "rgba(139,92,246,0.25)" : "rgba(255,255,255,0.08)",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
        }}
      >
        <Typography variant="body2">{m.body}</Typography>
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ display: "block", textAlign: mine ? "right" : "left", mt: 0.25 }}>
        {mine ? t("support.you") : t("support.team")} · {new Date(m.created_at).toLocaleString(i18n.language, { dateStyle: "short", timeStyle: "short" })}
      </Typography>
    </Box>
  );
}

/** What the person writes, about the order the panel was opened from when there is one. */
function Composer({ orderId, onAnswer }: { orderId: number | null; onAnswer: (a: SupportAnswer) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onAnswer(await sendSupportMessage(text, orderId));
      setText("");
    } catch (err) {
      setError(translateMessage(err instanceof ApiError ? err.message : String(err)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" onSubmit={(e) => void submit(e)} sx={{ display: "grid", gap: 1 }}>
      {error && (
        <Alert severity="error" data-testid="support-error">
          {error}
        </Alert>
      )}
      <TextField
        multiline
        minRows={2}
        maxRows={5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t("support.placeholder")}
        slotProps={{ htmlInput: { maxLength: SUPPORT_MESSAGE_MAX, "aria-label": t("support.placeholder"), "data-testid": "support-input" } }}
      />
      <Button type="submit" variant="contained" startIcon={<SendIcon />} disabled={busy || !text.trim()} data-testid="support-send">
        {t("support.send")}
      </Button>
    </Box>
  );
}

/** A visitor without a session starts one as a guest: their conversation belongs to that guest account. */
function StartAsGuest() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      fullWidth
      variant="contained"
      disabled={busy}
      data-testid="support-guest"
      onClick={() => {
        setBusy(true);
        session.guestLogin().finally(() => setBusy(false));
      }}
    >
      {t("support.asGuest")}
    </Button>
  );
}

/** The billing-support conversation (issue 35 item 3): the person's messages and support's replies, and a box to write. */
export function SupportPanel({ answer, orderId, onAnswer }: { answer: SupportAnswer | null; orderId: number | null; onAnswer: (a: SupportAnswer) => void }) {
  const { t } = useTranslation();
  const { token } = useSession();
  const thread = answer?.thread ?? null;
  return (
    <Paper
      elevation={8}
      sx={{ width: "min(340px, calc(100vw - 32px))", p: 2, borderRadius: 4, border: 1, borderColor: "divider", display: "grid", gap: 1.5 }}
      data-testid="support-panel"
      role="dialog"
      aria-label={t("support.title")}
    >
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between" }}>
        <Typography variant="subtitle1" fontWeight={700}>
          {t("support.title")}
        </Typography>
        <Button size="small" onClick={() => dialogs.close()} aria-label={t("common.close")} sx={{ minWidth: 0, px: 1 }}>
          <CloseIcon fontSize="small" />
        </Button>
      </Box>
      {(orderId !== null || thread?.order_no) && (
        <Typography variant="caption" color="secondary.main" data-testid="support-order">
          {orderId !== null && orderId !== thread?.order_id ? t("support.aboutThisOrder") : t("support.aboutOrder", { orderNo: thread?.order_no })}
        </Typography>
      )}
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1, maxHeight: "40vh", overflowY: "auto" }} data-testid="support-messages">
        {thread?.messages.length ? (
          thread.messages.map((m) => <Message key={m.id} m={m} />)
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t("support.body")}
          </Typography>
        )}
      </Box>
      {thread?.status === "closed" && (
        <Typography variant="caption" color="text.secondary">
          {t("support.closed")}
        </Typography>
      )}
      {token ? <Composer orderId={orderId} onAnswer={onAnswer} /> : <StartAsGuest />}
      <Typography variant="caption" color="text.secondary">
        {t("support.hours")}
      </Typography>
    </Paper>
  );
}
