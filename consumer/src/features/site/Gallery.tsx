import { lazy, Suspense, useEffect, useState } from "react";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import FlagOutlinedIcon from "@mui/icons-material/FlagOutlined";
import { useTranslation } from "react-i18next";
import { getGallery, type GalleryItem } from "../templates/templates.api.ts";

const ReportDialog = lazy(() => import("../report/ReportDialog.tsx"));

/** Home gallery of public creations; each one can be reported. Videos play muted on hover only, to keep the page light. */
export function Gallery() {
  const { t } = useTranslation();
  const [items, setItems] = useState<GalleryItem[] | null>(null);
  const [reporting, setReporting] = useState<GalleryItem | null>(null);

  useEffect(() => {
    getGallery()
      .then(setItems)
      .catch(() => setItems([]));
  }, []);

  if (items !== null && items.length === 0) {
    return <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }} data-testid="gallery-empty">{t("home.galleryEmpty")}</Typography>;
  }
  return (
    <>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(4, 1fr)" }, gap: 1.5 }} data-testid="gallery">
        {items === null
          ? Array.from({ length: 8 }, (_, i) => <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "9 / 14", height: "auto", borderRadius: 3 }} />)
          : items.map((item) => (
              <Box key={item.id} sx={{ position: "relative", aspectRatio: "9 / 14", borderRadius: 3, overflow: "hidden", bgcolor: "#1c1c2b", "&:hover .report": { opacity: 1 } }} data-testid={`gallery-item-${item.id}`}>
                {item.video_url ? (
                  <Box
                    component="video"
                    src={item.video_url}
                    poster={item.poster_url ?? item.cover_url ?? undefined}
                    muted
                    loop
                    playsInline
                    preload="none"
                    onMouseEnter={(e) => void (e.currentTarget as HTMLVideoElement).play().catch(() => null)}
                    onMouseLeave={(e) => (e.currentTarget as HTMLVideoElement).pause()}
                    sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }}
                  />
                ) : (
                  <Box component="img" src={item.poster_url ?? item.cover_url ?? ""} alt="" loading="lazy" sx={{ width: "100%", height: "100%", objectFit: "cover", display: "block" }} />
                )}
                {item.name && (
                  <Box sx={{ position: "absolute", left: 0, right: 0, bottom: 0, p: 1.25, background: "linear-gradient(transparent, rgba(0,0,0,.8))" }}>
                    <Typography variant="body2" fontWeight={700} noWrap>{item.name}</Typography>
                  </Box>
                )}
                <IconButton className="report" size="small" onClick={() => setReporting(item)} aria-label={t("report.action")} title={t("report.action")} data-testid="report-open" sx={{ position: "absolute", top: 6, right: 6, bgcolor: "rgba(0,0,0,0.55)", opacity: { xs: 1, md: 0.75 }, "&:hover": { bgcolor: "rgba(0,0,0,0.8)" } }}>
                  <FlagOutlinedIcon fontSize="small" />
                </IconButton>
              </Box>
            ))}
      </Box>
      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog target={{ type: "task", id: reporting.id }} onClose={() => setReporting(null)} />
        </Suspense>
      )}
    </>
  );
}
