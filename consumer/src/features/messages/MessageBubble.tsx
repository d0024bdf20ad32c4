import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import LockIcon from "@mui/icons-material/Lock";
import { useTranslation } from "react-i18next";
import { messageMedia, type MessageView } from "./messages.api.ts";

/**
 * A message's picture or video, fetched with the viewer's token (its URL is signed for them alone and checked on every
 * request); a video streams with the media pass the page set.
 */
function Media({ m }: { m: MessageView }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!m.media_url || m.media_kind === "video") return;
    const abort = new AbortController();
    let made: string | null = null;
    messageMedia(m.media_url, abort.signal).then(
      (u) => setSrc((made = u)),
      () => undefined,
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [m.media_url, m.media_kind]);
  if (!m.media_url) return null;
  const sx = { display: "block", width: "100%", maxWidth: 280, borderRadius: 1.5, mt: 0.5 };
  if (m.media_kind === "video") return <Box component="video" src={m.media_url} controls playsInline sx={sx} data-testid="message-video" />;
  return src ? <Box component="img" src={src} alt="" sx={sx} data-testid="message-image" /> : null;
}

/**
 * One message: the other side's on the left, the caller's on the right. A locked one shows its text, the kind of what
 * it holds and its price, with the fan's button to open it once.
 */
export function MessageBubble({ m, onUnlock, onReport }: { m: MessageView; onUnlock: () => void; onReport: () => void }) {
  const { t, i18n } = useTranslation();
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "short" }).format(new Date(m.created_at));
  return (
    <Box
      data-testid="message"
      data-locked={m.locked ? "1" : "0"}
      sx={{
        alignSelf: m.mine ? "flex-end" : "flex-start",
        maxWidth: "85%",
        p: 1.25,
        borderRadius: 2,
        bgcolor: m.mine ? "primary.main" : "action.hover",
        color: m.mine ? "primary.contrastText" : "text.primary",
      }}
    >
      {m.body && <Typography sx={{ whiteSpace: "pre-line", overflowWrap: "anywhere" }}>{m.body}</Typography>}
      {m.locked ? (
        <Box sx={{ display: "grid", gap: 0.75, mt: 0.5, p: 1.25, borderRadius: 1.5, border: 1, borderColor: "divider", textAlign: "center" }}>
          <LockIcon fontSize="small" sx={{ justifySelf: "center" }} />
          <Typography variant="body2">{t(m.media_kind === "video" ? "messages.lockedVideo" : "messages.lockedImage")}</Typography>
          <Button variant="contained" size="small" onClick={onUnlock} data-testid="message-unlock">
            {t("messages.unlock", { count: m.price })}
          </Button>
        </Box>
      ) : (
        <Media m={m} />
      )}
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", justifyContent: "space-between", mt: 0.5 }}>
        <Typography variant="caption" sx={{ opacity: 0.8 }}>
          {time}
          {m.mass ? ` · ${t("messages.toAllMembers")}` : ""}
          {m.price > 0 && !m.locked ? ` · ${t("messages.paid", { count: m.price })}` : ""}
        </Typography>
        {!m.mine && (
          <Button size="small" color="inherit" onClick={onReport} sx={{ minWidth: 0, p: 0, fontSize: 12, opacity: 0.8 }} data-testid="message-report">
            {t("report.action")}
          </Button>
        )}
      </Box>
    </Box>
  );
}
