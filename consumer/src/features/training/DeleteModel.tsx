import { useState } from "react";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { trainingMessage } from "./messages.ts";
import { trainingApi, type CharacterModelView } from "./training.api.ts";

/**
 * Withdraw likeness consent and delete a model (issue 30 item 7), after a confirmation that says what happens: the
 * model and its files are gone for good, and a creator page showing it stays, without it.
 */
export function DeleteModel({ model, onDeleted }: { model: CharacterModelView; onDeleted: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await trainingApi.revoke(model.id);
      setOpen(false);
      onDeleted();
    } catch (e) {
      setError(trainingMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Button size="small" color="error" onClick={() => setOpen(true)} data-testid="model-delete">
        {t("training.delete.action")}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={`delete-model-${model.id}`}>
        <DialogTitle id={`delete-model-${model.id}`}>{t("training.delete.title", { name: model.name })}</DialogTitle>
        <DialogContent sx={{ display: "grid", gap: 1.5 }}>
          <Typography>{t("training.delete.body")}</Typography>
          <Typography color="text.secondary">{t("training.delete.page")}</Typography>
          {error && <Alert severity="error">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t("training.delete.keep")}</Button>
          <Button color="error" variant="contained" disabled={busy} onClick={() => void remove()} data-testid="model-delete-confirm">
            {t("training.delete.confirm")}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
