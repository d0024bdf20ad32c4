import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import BrushIcon from "@mui/icons-material/Brush";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { session } from "../session/session.ts";
import { statusKey } from "../generation/generation.api.ts";
import { useTaskProgress } from "../generation/useTaskProgress.ts";
import type { UploadResult } from "../uploads/uploads.api.ts";
import { chatApi, type CharacterInput } from "./chat.api.ts";

/**
 * "Generate avatar": the AI image model paints the card as it is in the editor (charged like one text-to-image, given
 * back if it fails); the person looks at the picture and keeps it as the avatar or paints again. A server without an
 * AI image model says so (the local draft renderer is never offered as a portrait).
 */
export function AvatarPainter({
  card,
  onPick,
}: {
  card: Pick<CharacterInput, "name" | "description" | "personality" | "tags" | "age">;
  onPick: (upload: UploadResult) => void;
}) {
  const { t } = useTranslation();
  const [taskId, setTaskId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const followed = useTaskProgress(taskId);
  // the hook keeps the last task it followed; once the picture is kept (or another is painted) that one is done with
  const task = taskId !== null && followed?.id === taskId ? followed : null;
  const state = task ? statusKey(task) : null;
  const picture = state === "succeeded" ? (task?.image_urls?.[0] ?? null) : null;
  const painting = taskId !== null && state !== "succeeded" && state !== "failed" && state !== "expired";
  const ready = card.name.trim() !== "" && (card.description.trim() !== "" || card.personality.trim() !== "");

  async function paint() {
    setBusy(true);
    setError(null);
    try {
      const r = await chatApi.paintAvatar({ ...card, tags: card.tags.filter(Boolean) }, crypto.randomUUID());
      setTaskId(r.id);
      void session.refreshBalance();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  async function keep() {
    if (taskId === null) return;
    setBusy(true);
    setError(null);
    try {
      onPick(await chatApi.keepAvatar(taskId));
      setTaskId(null);
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box data-testid="avatar-painter" sx={{ display: "grid", gap: 1 }}>
      <Typography variant="body2" color="text.secondary">
        {t("chat.avatar.help")}
      </Typography>
      {!picture && (
        <Button
          variant="outlined"
          startIcon={<BrushIcon />}
          disabled={!ready || busy || painting}
          onClick={() => void paint()}
          data-testid="avatar-generate"
          sx={{ justifySelf: "start" }}
        >
          {t("chat.avatar.generate")}
        </Button>
      )}
      {painting && (
        <Box data-testid="avatar-painting">
          <Typography variant="body2">{t("chat.avatar.painting")}</Typography>
          <LinearProgress variant={task?.progress ? "determinate" : "indeterminate"} value={task?.progress ?? 0} />
        </Box>
      )}
      {picture && (
        <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
          <Box
            component="img"
            src={picture}
            alt={t("chat.avatar.result")}
            data-testid="avatar-result"
            sx={{ width: 96, height: 96, borderRadius: 2, objectFit: "cover" }}
          />
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
            <Button variant="contained" disabled={busy} onClick={() => void keep()} data-testid="avatar-keep">
              {t("chat.avatar.use")}
            </Button>
            <Button disabled={busy} onClick={() => void paint()} data-testid="avatar-again">
              {t("chat.avatar.again")}
            </Button>
          </Box>
        </Box>
      )}
      {(state === "failed" || state === "expired") && <Alert severity="warning">{t("chat.avatar.failed")}</Alert>}
      {error && (
        <Alert severity="info" data-testid="avatar-error">
          {error}
        </Alert>
      )}
    </Box>
  );
}
