import { Suspense, useEffect, useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import BoltIcon from "@mui/icons-material/Bolt";
import EditIcon from "@mui/icons-material/Edit";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import RefreshIcon from "@mui/icons-material/Refresh";
import SendIcon from "@mui/icons-material/Send";
import StopIcon from "@mui/icons-material/Stop";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { useSession } from "../session/session.ts";
import { CharacterAvatar } from "./CharacterAvatar.tsx";
import { chatApi, type ChatMessage, type ChatStatus } from "./chat.api.ts";
import { ChatUnavailable } from "./ChatUnavailable.tsx";
import { ChatMediaButton } from "./ChatMediaButton.tsx";
import { ChatMediaCard } from "./ChatMediaCard.tsx";
import { useConversation } from "./useConversation.ts";
import { lazyView } from "../../i18n/index.ts";

const ReportDialog = lazyView(() => import("../report/ReportDialog.tsx"));

/** Three dots while the character is "typing" (sent, no token yet). */
function TypingDots() {
  const { t } = useTranslation();
  return (
    <Box role="status" aria-label={t("chat.typing")} sx={{ display: "inline-flex", gap: 0.5, py: 0.5 }} data-testid="typing">
      {[0, 1, 2].map((i) => (
        <Box
          key={i}
          sx={{
            width: 7,
            height: 7,
            borderRadius: "50%",
            bgcolor: "text.secondary",
            animation: "chatDot 1.2s infinite ease-in-out",
            animationDelay: `${i * 0.15}s`,
            "@keyframes chatDot": { "0%, 80%, 100%": { opacity: 0.25, transform: "translateY(0)" }, "40%": { opacity: 1, transform: "translateY(-3px)" } },
          }}
        />
      ))}
    </Box>
  );
}

function Bubble({ m, streaming, children }: { m: ChatMessage; streaming: boolean; children?: React.ReactNode }) {
  const { t } = useTranslation();
  const mine = m.role === "user";
  return (
    <Box sx={{ display: "flex", justifyContent: mine ? "flex-end" : "flex-start" }}>
      <Box
        data-testid={mine ? "msg-user" : "msg-reply"}
        data-status={m.status}
        sx={{
          maxWidth: "85%",
          px: 1.75,
          py: 1.1,
          borderRadius: 3,
          borderTopRightRadius: mine ? 6 : undefined,
          borderTopLeftRadius: mine ? undefined : 6,
          bgcolor: mine ? "primary.main" : "rgba(255,255,255,0.07)",
          color: mine ? "primary.contrastText" : "text.primary",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
        }}
      >
        {m.content}
        {streaming && (
          <Box
            component="span"
            sx={{
              display: "inline-block",
              width: 8,
              height: 16,
              ml: 0.25,
              bgcolor: "text.secondary",
              verticalAlign: "text-bottom",
              animation: "chatCaret 1s steps(2) infinite",
              "@keyframes chatCaret": { "0%": { opacity: 1 }, "100%": { opacity: 0 } },
            }}
          />
        )}
        {(m.status === "stopped" || m.status === "cut") && (
          <Typography variant="caption" sx={{ display: "block", opacity: 0.7, mt: 0.5 }}>
            {t(`chat.status.${m.status}`)}
          </Typography>
        )}
        {children}
      </Box>
    </Box>
  );
}

/**
 * One conversation: avatar and name, the messages, the streaming reply, and the message box with stop / regenerate.
 * `status` is the chat page's RoleChat/status, so opening a conversation does not ask it a second time.
 */
export function ConversationView({ id, status, onBack, onDeleted }: { id: number; status: ChatStatus | null; onBack: () => void; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const c = useConversation(id);
  const [text, setText] = useState("");
  const [editing, setEditing] = useState(false);
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [report, setReport] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const busy = c.phase !== "idle";
  const character = c.conversation?.character;
  const lastUser = [...c.messages].reverse().find((m) => m.role === "user");
  const lastReply = c.messages.at(-1);
  // without a chat back end no reply can come: the box is off and the notice above says why (issue 31.4)
  const noBackEnd = status !== null && !status.available;

  useEffect(() => {
    end.current?.scrollIntoView({ block: "end" });
  }, [c.messages, c.phase]);

  function submit() {
    const content = text.trim();
    if (!content || busy) return;
    setText("");
    if (editing) {
      setEditing(false);
      void c.edit(content);
    } else void c.send(content);
  }

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }} data-testid="conversation">
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 1, py: 1, borderBottom: 1, borderColor: "divider" }}>
        <IconButton aria-label={t("chat.back")} onClick={onBack} sx={{ display: { md: "none" } }}>
          <ArrowBackIcon />
        </IconButton>
        {character && <CharacterAvatar character={character} size={36} />}
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography fontWeight={700} noWrap data-testid="conversation-name">
            {character?.name ?? ""}
          </Typography>
          {c.phase !== "idle" && (
            <Typography variant="caption" color="text.secondary">
              {t("chat.typing")}
            </Typography>
          )}
        </Box>
        <Button size="small" startIcon={<BoltIcon />} onClick={() => dialogs.open("buyCredits")} data-testid="chat-balance">
          {user?.points ?? 0}
        </Button>
        <IconButton aria-label={t("chat.more")} onClick={(e) => setMenu(e.currentTarget)}>
          <MoreVertIcon />
        </IconButton>
        <Menu anchorEl={menu} open={!!menu} onClose={() => setMenu(null)}>
          <MenuItem onClick={() => (setMenu(null), setReport(true))}>{t("report.action")}</MenuItem>
          <MenuItem
            onClick={() => {
              setMenu(null);
              if (window.confirm(t("chat.deleteConfirm"))) void chatApi.deleteConversation(id).then(onDeleted);
            }}
          >
            {t("chat.delete")}
          </MenuItem>
        </Menu>
      </Box>

      <Box sx={{ flex: 1, overflowY: "auto", px: { xs: 1.5, sm: 2 }, py: 2, display: "flex", flexDirection: "column", gap: 1.25 }} data-testid="messages">
        {c.messages.map((m) => {
          const streaming = busy && m.role === "assistant" && m === lastReply && m.status === "streaming";
          return (
            <Bubble key={m.id} m={m} streaming={streaming && c.phase === "streaming"}>
              {streaming && c.phase === "waiting" && !m.content && <TypingDots />}
              {m.media && <ChatMediaCard media={m.media} name={character?.name ?? ""} conversationId={id} onAccept={() => c.acceptOffer(m.id)} />}
            </Bubble>
          );
        })}
        {c.phase === "waiting" && lastReply?.role === "user" && (
          <Bubble m={{ id: 0, role: "assistant", content: "", status: "streaming", reply_to_id: null, credits: 0, created_at: "" }} streaming={false}>
            <TypingDots />
          </Bubble>
        )}
        {!busy && lastReply?.role === "assistant" && lastReply.reply_to_id !== null && (
          <Box sx={{ display: "flex", gap: 1 }}>
            <Button size="small" startIcon={<RefreshIcon />} disabled={noBackEnd} onClick={() => void c.regenerate()} data-testid="chat-regenerate">
              {t("chat.regenerate")}
            </Button>
            {lastUser && (
              <Button size="small" startIcon={<EditIcon />} onClick={() => (setEditing(true), setText(lastUser.content))} data-testid="chat-edit">
                {t("chat.editLast")}
              </Button>
            )}
          </Box>
        )}
        <div ref={end} />
      </Box>

      <ChatUnavailable status={status} sx={{ mx: 1.5, mb: 1 }} />
      {c.error && (
        <Alert severity="warning" onClose={c.clearError} sx={{ mx: 1.5, mb: 1 }} data-testid="chat-error">
          {c.error}
        </Alert>
      )}
      <Box
        component="form"
        onSubmit={(e) => (e.preventDefault(), submit())}
        sx={{ display: "flex", gap: 1, p: 1.25, borderTop: 1, borderColor: "divider", alignItems: "flex-end", mb: { xs: "56px", md: 0 } }}
      >
        <ChatMediaButton conversationId={id} name={character?.name ?? ""} disabled={busy} onRequest={c.requestMedia} />
        <TextField
          fullWidth
          multiline
          maxRows={5}
          size="small"
          value={text}
          disabled={noBackEnd}
          placeholder={editing ? t("chat.editPlaceholder") : t("chat.placeholder", { name: character?.name ?? "" })}
          onChange={(e) => setText(e.target.value.slice(0, 2000))}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
          inputProps={{ "data-testid": "chat-input" }}
        />
        {busy ? (
          <IconButton color="warning" aria-label={t("chat.stop")} onClick={c.stop} data-testid="chat-stop">
            <StopIcon />
          </IconButton>
        ) : (
          <IconButton color="primary" type="submit" aria-label={t("chat.send")} disabled={noBackEnd || !text.trim()} data-testid="chat-send">
            <SendIcon />
          </IconButton>
        )}
      </Box>
      <Suspense fallback={null}>{report && <ReportDialog target={{ type: "conversation", id }} onClose={() => setReport(false)} />}</Suspense>
    </Box>
  );
}
