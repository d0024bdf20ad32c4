import { Suspense, useCallback, useEffect, useRef, useState } from "react";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import FlagOutlinedIcon from "@mui/icons-material/FlagOutlined";
import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import { useTranslation } from "react-i18next";
import { getVideoTemplates, type Template } from "../templates/templates.api.ts";
import { getGallery, type GalleryFilter, type GalleryItem } from "../gallery/gallery.api.ts";
import { GalleryControls } from "../gallery/GalleryControls.tsx";
import { LikeButton } from "../gallery/LikeButton.tsx";
import { lazyView } from "../../i18n/index.ts";
import { examplesToShow, GALLERY_CELLS } from "./gallery-fill.ts";
import { GalleryExample } from "./GalleryExample.tsx";

const ReportDialog = lazyView(() => import("../report/ReportDialog.tsx"));
const GalleryItemDialog = lazyView(() => import("../gallery/GalleryItemDialog.tsx"));
const FollowingFeed = lazyView(() => import("../gallery/FollowingFeed.tsx"));

/** Everyone's shared creations, or only what the creators one subscribes to share (docs/decisions/309). */
const GALLERY_TABS = ["everyone", "subscriptions"] as const;
type GalleryTab = (typeof GALLERY_TABS)[number];

function GalleryTabs({ value, onChange }: { value: GalleryTab; onChange: (tab: GalleryTab) => void }) {
  const { t } = useTranslation();
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={value}
      onChange={(_e, v: GalleryTab | null) => v && onChange(v)}
      sx={{ mb: 1.5 }}
      data-testid="gallery-tabs"
    >
      {GALLERY_TABS.map((tab) => (
        <ToggleButton key={tab} value={tab} data-testid={`gallery-tab-${tab}`} sx={{ px: 2 }}>
          {t(`gallery.tabs.${tab}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

function GalleryCard({ item, onReport, onOpen }: { item: GalleryItem; onReport: () => void; onOpen: () => void }) {
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
            p: 1,
            pointerEvents: "none",
            display: "flex",
            alignItems: "center",
            gap: 0.5,
            background: "linear-gradient(transparent, rgba(0,0,0,.8))",
          }}
        >
          {/* the name opens the creation: its prompt, settings and "use these settings" */}
          <Box
            component="button"
            type="button"
            onClick={onOpen}
            aria-label={t("gallery.open", { name: item.nickname })}
            data-testid={`gallery-open-${item.id}`}
            sx={{ flex: 1, minWidth: 0, p: 0, border: 0, background: "none", color: "inherit", textAlign: "left", cursor: "pointer", pointerEvents: "auto" }}
          >
            <Typography variant="body2" fontWeight={700} noWrap data-testid="gallery-nickname">
              {t("gallery.by", { name: item.nickname })}
            </Typography>
          </Box>
          {/* keyed by the counts, so a like given in the opened item shows here once the page reloads */}
          <LikeButton key={`${item.likes}-${item.liked}`} id={item.id} likes={item.likes} liked={item.liked} />
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

/**
 * Home gallery of shared creations, newest or popular this week, by mode and template: posters first, a video loads only
 * when someone plays it; each one can be liked, opened (prompt, settings, remix) and reported.
 */
export default function Gallery() {
  const [tab, setTab] = useState<GalleryTab>("everyone");
  return (
    <>
      <GalleryTabs value={tab} onChange={setTab} />
      {tab === "everyone" ? (
        <Everyone />
      ) : (
        <Suspense fallback={null}>
          <FollowingFeed />
        </Suspense>
      )}
    </>
  );
}

function Everyone() {
  const { t } = useTranslation();
  const [items, setItems] = useState<GalleryItem[] | null>(null);
  const [reporting, setReporting] = useState<GalleryItem | null>(null);
  const [opened, setOpened] = useState<number | null>(null);
  const [filter, setFilter] = useState<GalleryFilter>({ sort: "new" });
  const filtered = Boolean(filter.mode || filter.template_id);

  const [examples, setExamples] = useState<Template[]>([]);

  const load = useCallback(() => {
    getGallery(filter)
      .then(async (list) => {
        setItems(list);
        // a gallery short of its first screenful shows what the templates make after the creations (gallery-fill.ts);
        // a filtered one shows only what matches
        const templates = list.length < GALLERY_CELLS && !filtered ? await getVideoTemplates().catch(() => []) : [];
        setExamples(examplesToShow(list.length, templates));
      })
      .catch(() => setItems([]));
  }, [filter, filtered]);
  useEffect(load, [load]);

  const controls = <GalleryControls value={filter} onChange={setFilter} />;
  if (items !== null && items.length === 0 && examples.length === 0) {
    return (
      <>
        {controls}
        <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }} data-testid="gallery-empty">
          {filtered ? t("gallery.noMatch") : t("home.galleryEmpty")}
        </Typography>
      </>
    );
  }
  return (
    <>
      {controls}
      {items?.length === 0 && (
        <Typography color="text.secondary" variant="body2" sx={{ mb: 1.5 }} data-testid="gallery-examples-note">
          {t("gallery.examplesNote")}
        </Typography>
      )}
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(4, 1fr)" }, gap: 1.5 }} data-testid="gallery">
        {items === null
          ? Array.from({ length: 8 }, (_, i) => <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "9 / 14", height: "auto", borderRadius: 3 }} />)
          : items.map((item) => <GalleryCard key={item.id} item={item} onReport={() => setReporting(item)} onOpen={() => setOpened(item.id)} />)}
        {examples.map((tpl) => (
          <GalleryExample key={`example-${tpl.id}`} template={tpl} />
        ))}
      </Box>
      {reporting && (
        <Suspense fallback={null}>
          <ReportDialog target={{ type: "task", id: reporting.id }} onClose={() => setReporting(null)} onSent={load} />
        </Suspense>
      )}
      {opened !== null && (
        <Suspense fallback={null}>
          <GalleryItemDialog
            id={opened}
            onClose={() => {
              setOpened(null);
              load();
            }}
            onOpen={setOpened}
          />
        </Suspense>
      )}
    </>
  );
}
