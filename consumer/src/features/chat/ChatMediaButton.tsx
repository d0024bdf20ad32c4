import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Popover from "@mui/material/Popover";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import PhotoCameraIcon from "@mui/icons-material/PhotoCamera";
import { useTranslation } from "react-i18next";
import { CHAT_MEDIA_MESSAGES, type ChatMediaKind } from "../../../../server/src/contract/chat.ts";
import { translateMessage } from "../../i18n/index.ts";
import { chatApi, type MediaQuote } from "./chat.api.ts";

/**
 * The button beside the composer that asks the character for a picture or a clip of itself (issue 50): the price of
 * each is asked when it opens and shown on its button before the tap, with what to show (optional).
 */
export function ChatMediaButton({
  conversationId,
  name,
  disabled,
  onRequest,
}: {
  conversationId: number;
  name: string;
  disabled: boolean;
  onRequest: (kind: ChatMediaKind, prompt: string) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [quote, setQuote] = useState<MediaQuote | null>(null);
  const [prompt, setPrompt] = useState("");
  const [sending, setSending] = useState(false);

  function open(el: HTMLElement) {
    setAnchor(el);
    setQuote(null);
    void chatApi
      .mediaQuote(conversationId)
      .then(setQuote)
      .catch(() => setQuote({ available: false, message: "", image: null, video: null }));
  }

  async function ask(kind: ChatMediaKind) {
    setSending(true);
    const ok = await onRequest(kind, prompt.trim());
    setSending(false);
    if (ok) {
      setPrompt("");
      setAnchor(null);
    }
  }

  const choice = (kind: ChatMediaKind) => {
    const q = quote?.[kind];
    return (
      <Button
        key={kind}
        variant="contained"
        size="small"
        fullWidth
        disabled={!q?.available || sending}
        onClick={() => void ask(kind)}
        data-testid={`chat-media-${kind}`}
        sx={{ justifyContent: "space-between", textTransform: "none" }}
      >
        <span>{t(kind === "image" ? "chat.media.picture" : "chat.media.clip")}</span>
        <span>{q ? t("chat.media.price", { count: q.points }) : "…"}</span>
      </Button>
    );
  };

  return (
    <>
      <IconButton aria-label={t("chat.media.ask", { name })} disabled={disabled} onClick={(e) => open(e.currentTarget)} data-testid="chat-media-button">
        <PhotoCameraIcon />
      </IconButton>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "top", horizontal: "left" }}
        transformOrigin={{ vertical: "bottom", horizontal: "left" }}
        slotProps={{ paper: { sx: { width: 300, maxWidth: "calc(100vw - 24px)", p: 1.5 } } }}
      >
        <Box data-testid="chat-media-menu" sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
          <Typography fontWeight={700}>{t("chat.media.ask", { name })}</Typography>
          <TextField
            size="small"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value.slice(0, 500))}
            placeholder={t("chat.media.promptPlaceholder")}
            inputProps={{ "data-testid": "chat-media-prompt" }}
          />
          {choice("image")}
          {choice("video")}
          {quote && !quote.available && (
            <Typography variant="body2" color="text.secondary">
              {translateMessage(quote.message || CHAT_MEDIA_MESSAGES.unavailable)}
            </Typography>
          )}
          {(quote?.image?.draft || quote?.video?.draft) && (
            <Typography variant="caption" color="text.secondary" data-testid="chat-media-draft-note">
              {t("chat.media.draftNote")}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary">
            {t("chat.media.refundNote")}
          </Typography>
        </Box>
      </Popover>
    </>
  );
}
