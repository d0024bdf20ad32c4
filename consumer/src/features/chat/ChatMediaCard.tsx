import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import MovieIcon from "@mui/icons-material/Movie";
import OpenInNewIcon from "@mui/icons-material/OpenInNew";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { QUEUE_STATES } from "../../../../server/src/contract/metrics.ts";
import { translateMessage } from "../../i18n/index.ts";
import type { Task } from "../generation/generation.api.ts";
import { useTaskProgress } from "../generation/useTaskProgress.ts";
import { ChatMediaOffer, type ChatMediaProps } from "./ChatMediaOffer.tsx";
import { chatApi, type ChatMedia } from "./chat.api.ts";

const RENDERING = new Set<string>(QUEUE_STATES);

/** The message's media as its task now is: the task's own progress stream has the state, percentage and files. */
const asTaskIs = (media: ChatMedia, task: Task | null): ChatMedia =>
  task?.state
    ? {
        ...media,
        state: task.state,
        progress: task.progress ?? 0,
        image_url: task.image_url,
        video_url: task.video_url,
        poster_url: task.poster_url,
        msg: task.msg,
      }
    : media;

/**
 * A character's picture or clip inside its message (issue 50): the character's offer until the person takes it, the
 * percentage while it renders (followed like every task, useTaskProgress), then the picture with open, download and
 * "make a video from this" (the studio with it as the photo); a failure says so, refunded.
 */
export function ChatMediaCard({ media: stored, name, conversationId, onAccept }: ChatMediaProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const media = asTaskIs(stored, useTaskProgress(RENDERING.has(stored.state) ? stored.task_id : null));
  const url = media.video_url ?? media.image_url;
  const rendering = RENDERING.has(media.state);
  if (media.state === "offered") return <ChatMediaOffer media={media} name={name} conversationId={conversationId} onAccept={onAccept} />;

  async function makeVideo() {
    if (!media.task_id) return;
    setBusy(true);
    try {
      const kept = await chatApi.keepAvatar(media.task_id);
      navigate(`/creationStudio?photo=${kept.id}`);
    } catch {
      setBusy(false);
    }
  }

  return (
    <Box data-testid="chat-media" data-state={media.state} sx={{ mt: 0.5, width: { xs: 220, sm: 260 }, maxWidth: "100%" }}>
      {rendering && (
        <Box sx={{ py: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t(media.kind === "video" ? "chat.media.makingClip" : "chat.media.making", { name })}
          </Typography>
          <LinearProgress variant={media.progress > 0 ? "determinate" : "indeterminate"} value={media.progress} sx={{ mt: 1, borderRadius: 1 }} />
        </Box>
      )}
      {media.state === "succeeded" && url && (
        <>
          {media.video_url ? (
            <Box
              component="video"
              src={url}
              controls
              playsInline
              poster={media.poster_url ?? undefined}
              sx={{ display: "block", width: "100%", borderRadius: 2 }}
              data-testid="chat-media-file"
            />
          ) : (
            <Box
              component="img"
              src={url}
              alt={t("chat.media.alt", { name })}
              sx={{ display: "block", width: "100%", borderRadius: 2 }}
              data-testid="chat-media-file"
            />
          )}
          {media.draft && <Chip size="small" label={t("chat.media.draft")} sx={{ mt: 0.75 }} data-testid="chat-media-draft" />}
          <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5, mt: 0.75 }}>
            <Button size="small" startIcon={<OpenInNewIcon />} href={url} target="_blank" rel="noopener">
              {t("chat.media.open")}
            </Button>
            <Button size="small" startIcon={<DownloadIcon />} href={url} download>
              {t("chat.media.download")}
            </Button>
            {media.kind === "image" && (
              <Button size="small" startIcon={<MovieIcon />} disabled={busy} onClick={() => void makeVideo()} data-testid="chat-media-video">
                {t("chat.media.makeVideo")}
              </Button>
            )}
          </Box>
        </>
      )}
      {media.state === "failed" && (
        <Typography variant="body2" color="warning.main" data-testid="chat-media-failed">
          {t("chat.media.failed")}
        </Typography>
      )}
      {(media.state === "removed" || media.state === "expired") && (
        <Typography variant="body2" color="text.secondary">
          {media.state === "removed" && media.msg ? translateMessage(media.msg) : t("progress.expired")}
        </Typography>
      )}
    </Box>
  );
}
