import { useRef, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import AddPhotoAlternateIcon from "@mui/icons-material/AddPhotoAlternate";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { photosExceeded, TRAINING_PHOTOS_MAX, TRAINING_PHOTOS_MIN } from "../../../../server/src/contract/training.ts";
import { translateMessage } from "../../i18n/index.ts";

export interface PhotoTile {
  key: string;
  preview: string;
  uploadId?: number;
  verdict?: string;
  /** The message shown under the photo: its check's verdict, or why it could not be uploaded. */
  message?: string;
  busy: boolean;
}

/** 10-20 training photos, each with its own feedback as soon as it is checked. */
export function TrainingPhotos({ tiles, onAdd, onRemove }: { tiles: PhotoTile[]; onAdd: (files: File[]) => void; onRemove: (key: string) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const room = TRAINING_PHOTOS_MAX - tiles.length;
  const [exceeded, setExceeded] = useState<string | null>(null);
  return (
    <Box data-testid="photos-step" sx={{ display: "grid", gap: 1.5 }}>
      <Typography color="text.secondary">{t("training.photos.hint", { min: TRAINING_PHOTOS_MIN, max: TRAINING_PHOTOS_MAX })}</Typography>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        accept="image/png,image/jpeg,image/webp,image/bmp"
        data-testid="photos-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          // SPEC.md §5's exceed-count message: the photos past the limit are named, not dropped silently
          setExceeded(files.length > room ? photosExceeded(tiles.length + files.length, TRAINING_PHOTOS_MAX) : null);
          onAdd(files.slice(0, room));
          e.target.value = "";
        }}
      />
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(96px, 1fr))", gap: 1 }}>
        {tiles.map((p) => (
          <Box
            key={p.key}
            data-testid="photo-tile"
            data-verdict={p.verdict ?? ""}
            sx={{
              position: "relative",
              border: 2,
              borderColor: p.busy ? "divider" : p.verdict === "ok" ? "success.main" : "error.main",
              borderRadius: 1.5,
              overflow: "hidden",
            }}
          >
            <Box component="img" src={p.preview} alt="" sx={{ width: "100%", aspectRatio: "1", objectFit: "cover", display: "block" }} />
            <IconButton
              size="small"
              aria-label={t("training.photos.remove")}
              onClick={() => onRemove(p.key)}
              sx={{ position: "absolute", top: 2, right: 2, bgcolor: "rgba(0,0,0,.55)", color: "#fff" }}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
            <Box sx={{ px: 0.75, py: 0.5, minHeight: 36, display: "flex", alignItems: "center" }}>
              {p.busy ? (
                <CircularProgress size={16} />
              ) : (
                <Typography variant="caption" color={p.verdict === "ok" ? "success.main" : "error.main"} sx={{ lineHeight: 1.2 }}>
                  {p.message}
                </Typography>
              )}
            </Box>
          </Box>
        ))}
      </Box>
      {exceeded && (
        <Alert severity="warning" data-testid="photos-exceeded" onClose={() => setExceeded(null)}>
          {translateMessage(exceeded)}
        </Alert>
      )}
      <Button variant="outlined" startIcon={<AddPhotoAlternateIcon />} disabled={room <= 0} onClick={() => input.current?.click()} data-testid="photos-add">
        {t("training.photos.add", { count: tiles.length, max: TRAINING_PHOTOS_MAX })}
      </Button>
    </Box>
  );
}
