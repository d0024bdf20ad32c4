import { useCallback, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutline";
import DownloadIcon from "@mui/icons-material/Download";
import ImageIcon from "@mui/icons-material/Image";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Theme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { deleteTask, statusKey, taskList, type Task, type TaskStatusKey } from "./generation.api.ts";
import { Can } from "../session/Can.tsx";
import { ShareToggle } from "./ShareToggle.tsx";
import { FollowUpActions, FollowUpOrigin } from "./FollowUpActions.tsx";
import { downloadFiles, mediaFiles } from "./media-files.ts";

/** SPEC.md §9 page sizes. */
export const PAGE_SIZES = [10, 20, 30, 50];

const STATUS_COLOR: Record<TaskStatusKey, "default" | "info" | "success" | "error" | "warning"> = {
  queued: "default",
  running: "info",
  succeeded: "success",
  failed: "error",
  expired: "warning",
  unknown: "default",
};

function createdAt(task: Task, locale: string): string {
  return task.created_at ? new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(task.created_at)) : "";
}

type Open = (task: Task) => void;

/** The poster of a finished task (a video's first frame, an image's own preview); the way to open it. */
function Thumbnail({ task, onOpen, size }: { task: Task; onOpen: Open; size: number }) {
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

function StatusChip({ task }: { task: Task }) {
  const { t } = useTranslation();
  const key = statusKey(task);
  return <Chip size="small" color={STATUS_COLOR[key]} label={t(`status.${key}`)} variant={key === "queued" ? "outlined" : "filled"} />;
}

/** Open (Play for a video, View for images), download every file it made, share, extend or make it 1080p, delete. */
function Actions({ task, onOpen, onDelete, onMade }: { task: Task; onOpen: Open; onDelete: Open; onMade: () => void }) {
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
function ResultCard({ task, onOpen, onDelete, onMade }: { task: Task; onOpen: Open; onDelete: Open; onMade: () => void }) {
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

/**
 * SPEC.md §3 generated-item list: ID, created time, status, action (open, download, delete), each with its
 * thumbnail. Phones get cards instead of the table, so every action stays on screen.
 */
export function ResultsList() {
  const { t, i18n } = useTranslation();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(20);
  const [data, setData] = useState<{ list: Task[]; total: number } | null>(null);
  const [playing, setPlaying] = useState<Task | null>(null);
  const [deleting, setDeleting] = useState<Task | null>(null);

  const load = useCallback(() => {
    taskList(page + 1, limit)
      .then(setData)
      .catch(() => setData({ list: [], total: 0 }));
  }, [page, limit]);
  useEffect(load, [load]);

  async function confirmDelete() {
    if (!deleting) return;
    await deleteTask(deleting.id).catch(() => null);
    setDeleting(null);
    load();
  }

  if (data && data.total === 0 && page === 0) {
    return (
      <Paper sx={{ p: 6, textAlign: "center", borderRadius: 5 }} data-testid="results-empty">
        <Typography variant="h6">{t("results.emptyTitle")}</Typography>
        <Typography color="text.secondary" sx={{ mt: 1 }}>
          {t("results.emptyBody")}
        </Typography>
        <Button variant="contained" component={RouterLink} to="/creationStudio" sx={{ mt: 3 }}>
          {t("results.create")}
        </Button>
      </Paper>
    );
  }

  const rows = data?.list ?? [];
  return (
    <Paper sx={{ borderRadius: 5, overflow: "hidden" }} data-testid="results" data-layout={phone ? "cards" : "table"}>
      {phone ? (
        <Box sx={{ display: "grid", gap: 1.5, p: 1.5 }}>
          {rows.map((task) => (
            <ResultCard key={task.id} task={task} onOpen={setPlaying} onDelete={setDeleting} onMade={load} />
          ))}
        </Box>
      ) : (
        <Box sx={{ overflowX: "auto" }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 72 }} />
                <TableCell>{t("results.id")}</TableCell>
                <TableCell>{t("results.created")}</TableCell>
                <TableCell>{t("results.status")}</TableCell>
                <TableCell align="right">{t("results.action")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((task) => (
                <TableRow key={task.id} hover data-testid={`result-${task.id}`}>
                  <TableCell sx={{ py: 0.75 }}>
                    <Thumbnail task={task} onOpen={setPlaying} size={56} />
                  </TableCell>
                  <TableCell sx={{ fontFamily: "monospace" }}>
                    {task.id} <FollowUpOrigin task={task} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>{createdAt(task, i18n.language)}</TableCell>
                  <TableCell>
                    <StatusChip task={task} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    <Actions task={task} onOpen={setPlaying} onDelete={setDeleting} onMade={load} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      <TablePagination
        component="div"
        data-testid="results-pages"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={limit}
        rowsPerPageOptions={PAGE_SIZES}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setLimit(Number(e.target.value));
          setPage(0);
        }}
        labelRowsPerPage={t("results.perPage")}
        labelDisplayedRows={({ from, to, count }) => t("results.range", { from, to, count })}
        // only the previous and next arrows are shown; MUI's own labels are English
        getItemAriaLabel={(type) => (type === "previous" ? t("results.previousPage") : t("results.nextPage"))}
        // on a phone the arrows wrap under the rest: in a row they were scrolled out of the card's sight in ja and ru
        sx={{ "& .MuiTablePagination-toolbar": { flexWrap: "wrap", justifyContent: "flex-end", px: 2 }, "& .MuiTablePagination-spacer": { display: "none" } }}
      />
      <Dialog
        open={playing !== null}
        onClose={() => setPlaying(null)}
        maxWidth="md"
        fullWidth
        data-testid="result-viewer"
        slotProps={{ paper: { sx: { mx: { xs: 1.5, sm: 4 }, width: { xs: "calc(100% - 24px)", sm: "calc(100% - 64px)" } } } }}
      >
        <DialogContent sx={{ p: 1.5 }}>
          {playing?.video_url ? (
            <Box
              component="video"
              src={playing.video_url}
              poster={playing.poster_url ?? undefined}
              controls
              autoPlay
              playsInline
              sx={{ width: "100%", maxHeight: "calc(100svh - 160px)", objectFit: "contain", borderRadius: 2, display: "block", bgcolor: "#000" }}
            />
          ) : (
            <Box sx={{ display: "grid", gap: 1.5 }}>
              {playing &&
                mediaFiles(playing).map((f) => (
                  <Box key={f.url}>
                    <Box component="img" src={f.url} alt={t("progress.imageAlt")} sx={{ width: "100%", borderRadius: 2, display: "block" }} />
                    <Button size="small" startIcon={<DownloadIcon />} href={f.url} download={f.name} data-testid="viewer-download" sx={{ mt: 0.5 }}>
                      {t("results.download")}
                    </Button>
                  </Box>
                ))}
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPlaying(null)}>{t("common.close")}</Button>
        </DialogActions>
      </Dialog>
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} data-testid="delete-confirm">
        <DialogContent>
          <Typography variant="h6">{t("results.deleteTitle")}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {t("results.deleteBody", { id: deleting?.id })}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t("common.cancel")}</Button>
          <Button color="error" onClick={() => void confirmDelete()} data-testid="delete-yes">
            {t("results.delete")}
          </Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
