import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import DownloadIcon from "@mui/icons-material/Download";
import ImageIcon from "@mui/icons-material/Image";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { statusKey, type Task, type TaskStatusKey } from "./generation.api.ts";
import { Can } from "../session/Can.tsx";
import { ShareToggle } from "./ShareToggle.tsx";
import { FollowUpActions, FollowUpOrigin } from "./FollowUpActions.tsx";
import { downloadFiles, mediaFiles } from "./media-files.ts";

/** One result of the list: its poster, status and actions, as a phone shows it (ResultsList lays them out). */

const STATUS_COLOR: Record<TaskStatusKey, "default" | "info" | "success" | "error" | "warning"> = {
  queued: "default",
  running: "info",
  succeeded: "success",
  failed: "error",
  expired: "warning",
  unknown: "default",
};

export function createdAt(task: Task, locale: string): string {
  return task.created_at ? new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(task.created_at)) : "";
}

type Open = (task: Task) => void;

/** The poster of a finished task (a video's first frame, an image's own preview); the way to open it. */
export function Thumbnail({ task, onOpen, size }: { task: Task; onOpen: Open; size: number }) {
  const { t } = useTranslation();
  const ready = statusKey(task) === "succeeded" && mediaFiles(task).length > 0;
  const video = Boolean(task.video_url);
  const box = {
    width: size,
    aspectRatio: "1 / 1",
    borderRadius: 2,
    bgcolor: "rgba(255,255,255,0.05)",
    overflow: "hidden",
    display: "block",
    position: "relative",
  } as const;
  if (!ready || !task.poster_url) return <Box sx={box} data-testid="result-thumb" />;
  return (
    <Box
      component="button"
      type="button"
      onClick={() => onOpen(task)}
      aria-label={video ? t("results.open") : t("newcomer.results.view")}
      data-testid="result-thumb"
      sx={{ ...box, p: 0, border: 0, cursor: "pointer" }}
    >
      <Box component="img" src={task.poster_url} alt="" loading="lazy" sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }} />
      {video && <PlayArrowIcon sx={{ position: "absolute", inset: 0, m: "auto", color: "#fff", filter: "drop-shadow(0 1px 3px rgba(0,0,0,.7))" }} />}
    </Box>
  );
}

export function StatusChip({ task }: { task: Task }) {
  const { t } = useTranslation();
  const key = statusKey(task);
  return <Chip size="small" color={STATUS_COLOR[key]} label={t(`status.${key}`)} variant={key === "queued" ? "outlined" : "filled"} />;
}

/** Open (Play for a video, View for images), download every file it made, share, extend or make it 1080p, delete. */
export function Actions({ task, onOpen, onDelete, onMade }: { task: Task; onOpen: Open; onDelete: Open; onMade: () => void }) {
  const { t } = useTranslation();
  const key = statusKey(task);
  const files = key === "succeeded" ? mediaFiles(task) : [];
  const video = Boolean(task.video_url);
  return (
    <>
      {files.length > 0 && (
        <>
          <Tooltip title={video ? t("results.open") : t("newcomer.results.view")}>
            <IconButton
              size="small"
              onClick={() => onOpen(task)}
              data-testid="result-open"
              data-kind={video ? "video" : "image"}
              aria-label={video ? t("results.open") : t("newcomer.results.view")}
            >
              {video ? <PlayArrowIcon fontSize="small" /> : <ImageIcon fontSize="small" />}
            </IconButton>
          </Tooltip>
          <Tooltip title={files.length > 1 ? t("newcomer.results.downloadAll", { count: files.length }) : t("results.download")}>
            {files.length === 1 ? (
              <IconButton
                size="small"
                component="a"
                href={files[0].url}
                download={files[0].name}
                data-testid="result-download"
                aria-label={t("results.download")}
              >
                <DownloadIcon fontSize="small" />
              </IconButton>
            ) : (
              <IconButton
                size="small"
                onClick={() => void downloadFiles(files)}
                data-testid="result-download"
                aria-label={t("newcomer.results.downloadAll", { count: files.length })}
              >
                <DownloadIcon fontSize="small" />
              </IconButton>
            )}
          </Tooltip>
          <Can permission="update:GenerationTask">
            <ShareToggle task={task} compact />
          </Can>
          <Can permission="create:GenerationTask">
            <FollowUpActions task={task} onDone={onMade} />
          </Can>
        </>
      )}
      {(key === "running" || key === "queued") && (
        <Button size="small" component={RouterLink} to={`/creationStudio?task=${task.id}`}>
          {t("results.watch")}
        </Button>
      )}
      <Can permission="delete:GenerationTask">
        <Tooltip title={t("results.delete")}>
          <IconButton size="small" onClick={() => onDelete(task)} data-testid="result-delete" aria-label={t("results.delete")}>
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Can>
    </>
  );
}

/** A phone's row: the thumbnail beside the date and status, the actions beneath, nothing off the right edge. */
export function ResultCard({ task, onOpen, onDelete, onMade }: { task: Task; onOpen: Open; onDelete: Open; onMade: () => void }) {
  const { i18n } = useTranslation();
  return (
    <Box
      data-testid={`result-${task.id}`}
      sx={{
        display: "grid",
        gridTemplateColumns: "88px minmax(0, 1fr)",
        gap: 1.5,
        p: 1.25,
        borderRadius: 3,
        border: 1,
        borderColor: "divider",
        bgcolor: "rgba(255,255,255,0.02)",
      }}
    >
      <Thumbnail task={task} onOpen={onOpen} size={88} />
      <Box sx={{ minWidth: 0, display: "grid", alignContent: "space-between", gap: 0.5 }}>
        <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
          <StatusChip task={task} />
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: "monospace" }}>
            #{task.id}
          </Typography>
          <FollowUpOrigin task={task} />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {createdAt(task, i18n.language)}
        </Typography>
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", ml: -0.75 }}>
          <Actions task={task} onOpen={onOpen} onDelete={onDelete} onMade={onMade} />
        </Box>
      </Box>
    </Box>
  );
}
