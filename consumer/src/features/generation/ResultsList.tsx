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
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { deleteTask, statusKey, taskList, type Task, type TaskStatusKey } from "./generation.api.ts";
import { Can } from "../session/Can.tsx";
import { ShareToggle } from "./ShareToggle.tsx";
import { downloadName } from "./TaskProgress.tsx";

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

/** SPEC.md §3 generated-item list: ID, created time, status, action (open, download, delete). */
export function ResultsList() {
  const { t, i18n } = useTranslation();
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
        <Typography color="text.secondary" sx={{ mt: 1 }}>{t("results.emptyBody")}</Typography>
        <Button variant="contained" component={RouterLink} to="/creationStudio" sx={{ mt: 3 }}>{t("results.create")}</Button>
      </Paper>
    );
  }

  return (
    <Paper sx={{ borderRadius: 5, overflow: "hidden" }} data-testid="results">
      <Box sx={{ overflowX: "auto" }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("results.id")}</TableCell>
              <TableCell>{t("results.created")}</TableCell>
              <TableCell>{t("results.status")}</TableCell>
              <TableCell align="right">{t("results.action")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(data?.list ?? []).map((task) => {
              const key = statusKey(task);
              const media = task.video_url ?? task.image_urls?.[0] ?? null;
              return (
                <TableRow key={task.id} hover data-testid={`result-${task.id}`}>
                  <TableCell sx={{ fontFamily: "monospace" }}>{task.id}</TableCell>
                  <TableCell>{createdAt(task, i18n.language)}</TableCell>
                  <TableCell>
                    <Chip size="small" color={STATUS_COLOR[key]} label={t(`status.${key}`)} variant={key === "queued" ? "outlined" : "filled"} />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                    {key === "succeeded" && media && (
                      <>
                        <Tooltip title={t("results.open")}>
                          <IconButton size="small" onClick={() => setPlaying(task)} data-testid="result-open"><PlayArrowIcon fontSize="small" /></IconButton>
                        </Tooltip>
                        <Tooltip title={t("results.download")}>
                          <IconButton size="small" component="a" href={media} download={downloadName(task.id, media)} data-testid="result-download"><DownloadIcon fontSize="small" /></IconButton>
                        </Tooltip>
                        <Can permission="update:GenerationTask">
                          <ShareToggle task={task} compact />
                        </Can>
                      </>
                    )}
                    {(key === "running" || key === "queued") && (
                      <Button size="small" component={RouterLink} to={`/creationStudio?task=${task.id}`}>{t("results.watch")}</Button>
                    )}
                    <Can permission="delete:GenerationTask">
                      <Tooltip title={t("results.delete")}>
                        <IconButton size="small" onClick={() => setDeleting(task)} data-testid="result-delete"><DeleteOutlineIcon fontSize="small" /></IconButton>
                      </Tooltip>
                    </Can>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
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
      />
      <Dialog open={playing !== null} onClose={() => setPlaying(null)} maxWidth="md" fullWidth>
        <DialogContent sx={{ p: 1.5 }}>
          {playing?.video_url ? (
            <Box component="video" src={playing.video_url} poster={playing.poster_url ?? undefined} controls autoPlay playsInline sx={{ width: "100%", borderRadius: 2, display: "block", bgcolor: "#000" }} />
          ) : (
            <Box sx={{ display: "grid", gap: 1 }}>
              {(playing?.image_urls ?? []).map((src) => <Box key={src} component="img" src={src} alt={t("progress.imageAlt")} sx={{ width: "100%", borderRadius: 2 }} />)}
            </Box>
          )}
        </DialogContent>
      </Dialog>
      <Dialog open={deleting !== null} onClose={() => setDeleting(null)} data-testid="delete-confirm">
        <DialogContent>
          <Typography variant="h6">{t("results.deleteTitle")}</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>{t("results.deleteBody", { id: deleting?.id })}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDeleting(null)}>{t("common.cancel")}</Button>
          <Button color="error" onClick={() => void confirmDelete()} data-testid="delete-yes">{t("results.delete")}</Button>
        </DialogActions>
      </Dialog>
    </Paper>
  );
}
