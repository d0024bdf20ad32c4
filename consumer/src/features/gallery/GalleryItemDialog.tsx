import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import AutoAwesomeIcon from "@mui/icons-material/AutoAwesome";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { getGalleryItem, type GalleryItemDetail } from "./gallery.api.ts";
import { LikeButton } from "./LikeButton.tsx";
import { SubscribeButton } from "./SubscribeButton.tsx";

/** A label and its value, one line each; nothing when the creation had no such setting. */
function Setting({ label, value }: { label: string; value: string | number | undefined }) {
  if (value === undefined || value === "") return null;
  return (
    <Box sx={{ display: "flex", gap: 1, justifyContent: "space-between", py: 0.5, borderBottom: "1px solid", borderColor: "divider" }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ textAlign: "right", overflowWrap: "anywhere" }}>
        {value}
      </Typography>
    </Box>
  );
}

/**
 * One shared creation opened: its prompt and settings, who shared it (the display name only), its likes, remixes and
 * the creation it remixes; "use these settings" opens the studio with them, never with the other person's photo.
 */
export default function GalleryItemDialog({ id, onClose, onOpen }: { id: number; onClose: () => void; onOpen: (id: number) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [item, setItem] = useState<GalleryItemDetail | null>(null);
  const [missing, setMissing] = useState(false);
  useEffect(() => {
    setItem(null);
    getGalleryItem(id)
      .then(setItem)
      .catch(() => setMissing(true));
  }, [id]);
  const s = item?.settings;
  return (
    // scroll="paper": the dialog fits the screen and its content scrolls inside it, so "Use these settings" is always in
    // sight; with the whole dialog scrolling on the page it sat below the fold on a phone (issue 46 item 23)
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="xs"
      scroll="paper"
      data-testid="gallery-item"
      slotProps={{ paper: { sx: { mx: 1.5, width: "calc(100% - 24px)", maxHeight: "calc(100svh - 24px)" } } }}
    >
      <DialogTitle sx={{ pb: 1 }}>{item ? t("gallery.by", { name: item.nickname }) : t("gallery.loading")}</DialogTitle>
      <DialogContent>
        {missing && <Alert severity="info">{t("gallery.gone")}</Alert>}
        {!item && !missing && <Skeleton variant="rounded" height={240} />}
        {item && (
          <Box sx={{ display: "grid", gap: 1.5 }}>
            <Box
              component="img"
              src={item.poster_url ?? item.image_url ?? ""}
              alt={t("gallery.by", { name: item.nickname })}
              sx={{ width: "100%", maxHeight: { xs: "32svh", sm: 260 }, objectFit: "contain", borderRadius: 2, bgcolor: "#1c1c2b" }}
            />
            <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
              <LikeButton id={item.id} likes={item.likes} liked={item.liked} />
              <Typography variant="body2" color="text.secondary" data-testid="gallery-remixes">
                {t("gallery.remixes", { count: item.remixes })}
              </Typography>
            </Box>
            {item.creator_link && (
              // the author has a creator page that is up: open it, or subscribe to it from here (docs/decisions/309)
              <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }} data-testid="gallery-creator">
                <Button size="small" onClick={() => navigate(`/${item.creator_link}`)} sx={{ px: 0 }} data-testid="gallery-creator-page">
                  {t("gallery.viewPage")}
                </Button>
                <SubscribeButton homeLink={item.creator_link} following={item.following === 1} />
              </Box>
            )}
            {item.remix_of && (
              <Button size="small" sx={{ justifySelf: "start", px: 0 }} onClick={() => onOpen(item.remix_of!.id)} data-testid="gallery-remix-of">
                {t("gallery.remixOf", { name: item.remix_of.nickname })}
              </Button>
            )}
            <Box>
              <Typography variant="subtitle2">{t("gallery.prompt")}</Typography>
              <Typography variant="body2" sx={{ overflowWrap: "anywhere" }} data-testid="gallery-prompt">
                {s?.prompt || t("gallery.noPrompt")}
              </Typography>
            </Box>
            <Box>
              <Setting label={t("gallery.mode")} value={t(`modes.${item.action}`, { defaultValue: t("modes.image_to_video") })} />
              <Setting label={t("engines.negativePrompt")} value={s?.negative_prompt} />
              <Setting label={t("engines.seedLabel")} value={s?.seed} />
              <Setting label={t("engines.aspect")} value={s?.aspect} />
              <Setting label={t("studio.resolution")} value={s?.resolution} />
              <Setting label={t("studio.length")} value={s?.duration === undefined ? undefined : t("studio.seconds", { count: s.duration })} />
              <Setting label={t("gallery.strength")} value={s?.strength?.toFixed(2)} />
              <Setting label={t("studio.batchCount")} value={s?.count} />
            </Box>
            <Typography variant="caption" color="text.secondary">
              {t("gallery.ownPhoto")}
            </Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, gap: 1, flexWrap: "wrap" }}>
        <Button onClick={onClose}>{t("common.close")}</Button>
        <Button
          variant="contained"
          startIcon={<AutoAwesomeIcon />}
          disabled={!item}
          onClick={() => navigate(`/creationStudio?remix=${id}`)}
          data-testid="gallery-use-settings"
        >
          {t("gallery.useSettings")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
