import { useCallback, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import DownloadIcon from "@mui/icons-material/Download";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Theme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { deleteTask, taskList, type Task } from "./generation.api.ts";
import { FollowUpOrigin } from "./FollowUpActions.tsx";
import { mediaFiles } from "./media-files.ts";
import { Actions, ResultCard, StatusChip, Thumbnail, createdAt } from "./ResultCard.tsx";

/** SPEC.md §9 page sizes. */
export const PAGE_SIZES = [10, 20, 30, 50];

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
