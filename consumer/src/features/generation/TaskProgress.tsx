import { useEffect, useRef } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import { useTranslation } from "react-i18next";
import { VIDEO_MODES } from "../../../../server/src/contract/generation.ts";
import { translateMessage } from "../../i18n/index.ts";
import { LOCAL_DRAFT, rerunTask, statusKey } from "./generation.api.ts";
import { downloadFiles, mediaFiles } from "./media-files.ts";
import { useSubmitTask } from "./useSubmitTask.ts";
import { ShareToggle } from "./ShareToggle.tsx";
import { useTaskProgress } from "./useTaskProgress.ts";
import { WatermarkNote } from "./WatermarkNote.tsx";
import { KEEP_CLEAR } from "../support/keep-clear.ts";

/** SPEC.md §9: a render takes about 1-2 minutes; the engine's own estimate wins when it gives one. */
/** A failed video says SPEC's video wording; an image task the generic "Generation failed". */
const isVideoTask = (task: { action?: string | null } | null | undefined) => (VIDEO_MODES as readonly string[]).includes(task?.action ?? "");

function estimateText(t: (k: string, o?: Record<string, unknown>) => string, seconds: number | null | undefined): string {
  if (!seconds) return t("progress.estimateDefault");
  return seconds < 60 ? t("progress.estimateSeconds", { count: Math.ceil(seconds) }) : t("progress.estimateMinutes", { count: Math.ceil(seconds / 60) });
}

/** Live progress of a submitted task, then the result to play and download (or the failure and the refund). */
export function TaskProgress({ taskId, onAnother, onRerun }: { taskId: number; onAnother: () => void; onRerun?: (taskId: number) => void }) {
  const { t } = useTranslation();
  const task = useTaskProgress(taskId);
  const rerun = useSubmitTask((id) => onRerun?.(id));
  const key = task?.status ? statusKey(task) : "queued";
  const progress = Math.max(0, Math.min(100, task?.progress ?? 0));
  const files = task && key === "succeeded" ? mediaFiles(task) : [];
  // after Generate (or opening a task from Results) the progress is what the person wants to see, wherever the page was scrolled
  const box = useRef<HTMLDivElement>(null);
  // braces: newer browsers' scrollIntoView returns a promise, which React would take for a clean-up function
  useEffect(() => {
    box.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [taskId]);

  return (
    <Paper ref={box} sx={{ p: { xs: 2.5, md: 4 }, borderRadius: 5, scrollMarginTop: 72 }} data-testid="task-progress" data-status={key}>
      {(key === "queued" || key === "running" || key === "unknown") && (
        <>
          <Typography variant="h5">{t(`progress.title.${key}`)}</Typography>
          <Typography color="text.secondary" sx={{ mt: 0.5 }}>
            {estimateText(t, task?.estimate_seconds)}
          </Typography>
          {!!task?.queue_position && (
            <Typography variant="body2" color="text.secondary" data-testid="queue-position">
              {t("engines.queueAhead", { count: task.queue_position })}
            </Typography>
          )}
          <Box sx={{ display: "flex", alignItems: "center", gap: 2, mt: 3 }}>
            <LinearProgress
              variant={progress > 0 ? "determinate" : "indeterminate"}
              value={progress}
              sx={{ flex: 1, height: 10, borderRadius: 5 }}
              data-testid="progress-bar"
            />
            <Typography variant="body2" fontWeight={700} sx={{ minWidth: 44, textAlign: "right" }} data-testid="progress-percent">{`${progress}%`}</Typography>
          </Box>
        </>
      )}
      {key === "succeeded" && task && (
        <>
          <Typography variant="h5">{t("progress.done")}</Typography>
          {task.video_url ? (
            <Box
              component="video"
              src={task.video_url}
              poster={task.poster_url ?? undefined}
              controls
              playsInline
              data-testid="result-video"
              // the support bubble steps aside rather than cover the player, and the watermark in its corner (issue 46 item 22)
              {...KEEP_CLEAR}
              sx={{
                display: "block",
                width: "100%",
                maxHeight: { xs: "calc(100svh - 200px)", md: 520 },
                objectFit: "contain",
                mt: 2,
                borderRadius: 3,
                bgcolor: "#000",
              }}
            />
          ) : (
            <Box sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(180px, 1fr))", gap: 1.5, mt: 2 }}>
              {files.map((f) => (
                <Box key={f.url} sx={{ position: "relative" }}>
                  <Box
                    component="img"
                    src={f.url}
                    alt={t("progress.imageAlt")}
                    sx={{ width: "100%", display: "block", borderRadius: 3 }}
                    data-testid="result-image"
                  />
                  <IconButton
                    component="a"
                    href={f.url}
                    download={f.name}
                    aria-label={t("progress.download")}
                    data-testid="result-image-download"
                    sx={{ position: "absolute", right: 8, bottom: 8, bgcolor: "rgba(0,0,0,0.55)", "&:hover": { bgcolor: "rgba(0,0,0,0.75)" } }}
                  >
                    <DownloadIcon fontSize="small" />
                  </IconButton>
                </Box>
              ))}
            </Box>
          )}
          <Box sx={{ display: "flex", gap: 1.5, mt: 2, flexWrap: "wrap" }}>
            {files.length === 1 && (
              <Button variant="contained" startIcon={<DownloadIcon />} href={files[0].url} download={files[0].name} data-testid="download">
                {t("progress.download")}
              </Button>
            )}
            {files.length > 1 && (
              <Button variant="contained" startIcon={<DownloadIcon />} onClick={() => void downloadFiles(files)} data-testid="download">
                {t("newcomer.results.downloadAll", { count: files.length })}
              </Button>
            )}
            <ShareToggle task={task} />
            <Button variant="outlined" onClick={onAnother} data-testid="create-another">
              {t("progress.another")}
            </Button>
            {onRerun && task.settings && (
              <Button variant="outlined" disabled={rerun.busy} onClick={() => void rerun.submit((key) => rerunTask(task, key))} data-testid="rerun">
                {t("engines.rerun")}
              </Button>
            )}
          </Box>
          {task.watermarked && <WatermarkNote where="result" />}
          {task.label === LOCAL_DRAFT && (
            <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1.5 }} data-testid="local-draft">
              {t("progress.localDraft")}
            </Typography>
          )}
          {rerun.error && (
            <Alert severity="error" sx={{ mt: 1.5 }} data-testid="rerun-error">
              {rerun.error}
            </Alert>
          )}
          {task.seed != null && (
            <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }} data-testid="seed">
              {t("engines.seed", { seed: task.seed })}
            </Typography>
          )}
        </>
      )}
      {(key === "failed" || key === "expired") && (
        <>
          <Alert severity="error" data-testid="task-failed">
            {key !== "failed"
              ? t("progress.expired")
              : task?.failed_input && task.msg
                ? translateMessage(task.msg)
                : t(isVideoTask(task) ? "msg.generationFailed" : "status.failed")}
          </Alert>
          {key === "failed" && (
            <Typography color="text.secondary" sx={{ mt: 2 }} data-testid="refunded">
              {task?.paid_with === "free" ? t("progress.freeReturned") : t("progress.refunded", { count: task?.cost ?? 0 })}
            </Typography>
          )}
          <Button variant="outlined" onClick={onAnother} sx={{ mt: 2 }}>
            {t("progress.tryAgain")}
          </Button>
        </>
      )}
    </Paper>
  );
}
