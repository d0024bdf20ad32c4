import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import PhotoCameraIcon from "@mui/icons-material/PhotoCamera";
import { useTranslation } from "react-i18next";
import { CHAT_MEDIA_MESSAGES } from "../../../../server/src/contract/chat.ts";
import { translateMessage } from "../../i18n/index.ts";
import { chatApi, type ChatMedia, type MediaQuote } from "./chat.api.ts";

/** A character's media in its message: the character's name, its conversation, and taking an offer (true once taken). */
export interface ChatMediaProps {
  media: ChatMedia;
  name: string;
  conversationId: number;
  onAccept: () => Promise<boolean>;
}

/**
 * The character's offer of a picture or clip of itself (issue 50 item 3, the chat model's tool call): what it would
 * show and its price, asked when the offer is shown; only the tap on "Take it" renders and charges it.
 */
export function ChatMediaOffer({ media, name, conversationId, onAccept }: ChatMediaProps) {
  const { t } = useTranslation();
  const [quote, setQuote] = useState<MediaQuote | null>(null);
  const [busy, setBusy] = useState(false);
  const q = quote?.[media.kind];

  useEffect(() => {
    let live = true;
    void chatApi
      .mediaQuote(conversationId)
      .then((r) => live && setQuote(r))
      .catch(() => live && setQuote({ available: false, message: "", image: null, video: null }));
    return () => {
      live = false;
    };
  }, [conversationId]);

  async function take() {
    setBusy(true);
    // on success the message now carries the task and this offer gives way to its progress
    if (!(await onAccept())) setBusy(false);
  }

  return (
    <Box
      data-testid="chat-media-offer"
      sx={{ mt: 0.75, p: 1.25, width: { xs: 240, sm: 280 }, maxWidth: "100%", border: 1, borderColor: "divider", borderRadius: 2, bgcolor: "background.paper" }}
    >
      <Typography variant="body2" fontWeight={700}>
        {t(media.kind === "video" ? "chat.media.offersClip" : "chat.media.offersPicture", { name })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.25, fontStyle: "italic", overflowWrap: "anywhere" }}>
        “{media.request}”
      </Typography>
      <Button
        variant="contained"
        size="small"
        fullWidth
        startIcon={<PhotoCameraIcon />}
        disabled={!q?.available || busy}
        onClick={() => void take()}
        data-testid="chat-media-take"
        sx={{ mt: 1, justifyContent: "space-between", textTransform: "none" }}
      >
        <span>{t("chat.media.take")}</span>
        <Box component="span" sx={{ ml: 1.5, fontWeight: 400, opacity: 0.9, whiteSpace: "nowrap" }}>
          {q ? t("chat.media.price", { count: q.points }) : "…"}
        </Box>
      </Button>
      {quote && !q?.available && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          {translateMessage(quote.message || CHAT_MEDIA_MESSAGES.unavailable)}
        </Typography>
      )}
      {q?.draft && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          {t("chat.media.draftNote")}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
        {t("chat.media.offerNote")}
      </Typography>
    </Box>
  );
}
