import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import FlagOutlinedIcon from "@mui/icons-material/FlagOutlined";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import { useTranslation } from "react-i18next";
import { getGallery, getVideoTemplates, type GalleryItem, type Template } from "../templates/templates.api.ts";
import { lazyView } from "../../i18n/index.ts";
import { examplesToShow, GALLERY_CELLS } from "./gallery-fill.ts";
import { GalleryExample } from "./GalleryExample.tsx";

const ReportDialog = lazyView(() => import("../report/ReportDialog.tsx"));

function GalleryCard({ item, onReport }: { item: GalleryItem; onReport: () => void }) {
  const { t } = useTranslation();
  const [playing, setPlaying] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const play = () => {
    setPlaying(true);
    void video.current?.play().catch(() => setPlaying(false));
  };
  const media = item.video_url ? (
    <Box
      component="video"
      ref={video}
      src={item.video_url}
      poster={item.poster_url ?? undefined}
      loop
      playsInline
      preload="none"
      controls={playing}
      data-testid="gallery-video"
      sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
    />
  ) : (
    <Box
      component="img"
      src={item.image_url ?? item.poster_url ?? ""}
      alt={t("gallery.by", { name: item.nickname })}
      loading="lazy"
      sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
    />
  );
  return (
    <Box sx={{ position: "relative", aspectRatio: "9 / 14", borderRadius: 3, overflow: "hidden", bgcolor: "#1c1c2b" }} data-testid={`gallery-item-${item.id}`}>
      {media}
      {item.video_url && !playing && (
        <Box
          component="button"
          type="button"
          onClick={play}
          aria-label={t("gallery.play", { name: item.nickname })}
          data-testid="gallery-play"
          sx={{ position: "absolute", inset: 0, border: 0, p: 0, cursor: "pointer", background: "transparent", display: "grid", placeItems: "center" }}
        >
          <Box sx={{ width: 52, height: 52, borderRadius: "50%", bgcolor: "rgba(0,0,0,0.5)", display: "grid", placeItems: "center" }}>
            <PlayArrowIcon sx={{ color: "#fff", fontSize: 32 }} />
          </Box>
        </Box>
      )}
      {!playing && (
        <Box
          sx={{
            position: "absolute",
            left: 0,
            right: 0,
            bottom: 0,
            p: 1.25,
            pointerEvents: "none",
            background: "linear-gradient(transparent, rgba(0,0,0,.8))",
          }}
        >
          <Typography variant="body2" fontWeight={700} noWrap data-testid="gallery-nickname">
            {t("gallery.by", { name: item.nickname })}
          </Typography>
        </Box>
      )}
      <IconButton
        size="small"
        onClick={onReport}
        aria-label={t("report.action")}
        title={t("report.action")}
        data-testid="report-open"
        sx={{ position: "absolute", top: 6, right: 6, bgcolor: "rgba(0,0,0,0.55)", "&:hover": { bgcolor: "rgba(0,0,0,0.8)" } }}
      >
        <FlagOutlinedIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

/** Home gallery of shared creations: posters first, a video loads only when someone plays it; each one can be reported. */
export default function Gallery() {
  const { t } = useTranslation();
  const [items, setItems] = useState<GalleryItem[] | null>(null);
  const [reporting, setReporting] = useState<GalleryItem | null>(null);

  const [examples, setExamples] = useState<Template[]>([]);

  const load = useCallback(() => {
    getGallery()
      .then(async (list) => {
        setItems(list);
        // a gallery short of its first screenful shows what the templates make after the creations (gallery-fill.ts)
        const templates = list.length < GALLERY_CELLS ? await getVideoTemplates().catch(() => []) : [];
        setExamples(examplesToShow(list.length, templates));
      })
      .catch(() => setItems([]));
  }, []);
  useEffect(load, [load]);

  if (items !== null && items.length === 0 && examples.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }} data-testid="gallery-empty">
        {t("home.galleryEmpty")}
      </Typography>
    );
  }
  return (
    <>
      {items?.length === 0 && (
        <Typography color="text.secondary" variant="body2" sx={{ mb: 1.5 }} data-testid="gallery-examples-note">
          {t("gallery.examplesNote")}
        </Typography>
      )}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(4, 1fr)" }, gap: 1.5 }} data-testid="gallery">
        {items === null
          ? Array.from({ length: 8 }, (_, i) => <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "9 / 14", height: "auto", borderRadius: 3 }} />)
          : items.map((item) => <GalleryCard key={item.id} item={item} onReport={() => setReporting(item)} />)}
        {examples.map((tpl) => (
          <GalleryExample key={`example-${tpl.id}`} template={tpl} />
        ))}
      </Box>
      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog target={{ type: "task", id: reporting.id }} onClose={() => setReporting(null)} onSent={load} />
        </Suspense>
      )}
    </>
  );
}
