import { Suspense, useEffect, useState } from "react";
import CloseIcon from "@mui/icons-material/Close";
import FlagOutlinedIcon from "@mui/icons-material/FlagOutlined";
import VolunteerActivismOutlinedIcon from "@mui/icons-material/VolunteerActivismOutlined";
import LockOutlinedIcon from "@mui/icons-material/LockOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { LIBRARY_PAGE_SIZE } from "../../../../server/src/contract/creators.ts";
import { lazyView, translateMessage } from "../../i18n/index.ts";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { useSession } from "../session/session.ts";
import { creatorsApi, memberMedia, type CreatorPageView, type LibraryItem } from "./creators.api.ts";

const ReportDialog = lazyView(() => import("../report/ReportDialog.tsx"));
const TipDialog = lazyView(() => import("./TipDialog.tsx"));

export const tileSx = { width: "100%", aspectRatio: "3 / 4", objectFit: "cover", borderRadius: 1.5, bgcolor: "grey.900", display: "block" } as const;

/** Adds a later page to what is shown, leaving out what is already there (items published meanwhile shift pages). */
export const appendNew = <T extends { id: number }>(shown: T[], next: T[]) => [...shown, ...next.filter((n) => !shown.some((s) => s.id === n.id))];

/** A "show more" button under a list that pages. */
export function MoreButton({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <Button variant="outlined" onClick={onClick} data-testid={testId} sx={{ justifySelf: "center" }}>
      {label}
    </Button>
  );
}

/**
 * Whether the viewer's media pass is set (asked for once per page view, and only when there are members-only videos
 * to stream): with it a <video> element streams them in ranges, which it cannot with the token header.
 */
export function useMediaPass(needed: boolean): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!needed) return;
    let live = true;
    creatorsApi.mediaPass().then(
      () => live && setReady(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [needed]);
  return ready;
}

/** A members-only video: streamed by the player with the media pass; fetched whole only if the pass is not sent. */
function MemberVideo({ item, passReady }: { item: LibraryItem; passReady: boolean }) {
  const [whole, setWhole] = useState(false);
  if (!passReady) return <Box sx={tileSx} />;
  if (whole) return <MemberMedia item={item} />;
  return (
    <Box
      component="video"
      src={item.video_url ?? undefined}
      poster={item.poster_url ?? undefined}
      controls
      playsInline
      preload="metadata"
      onError={() => setWhole(true)}
      data-testid="library-member-video"
      sx={tileSx}
    />
  );
}

/** A members-only file: fetched with the viewer's token (the server checks the membership each time). */
function MemberMedia({ item }: { item: LibraryItem }) {
  const [src, setSrc] = useState<string | null>(null);
  const url = item.video_url ?? item.image_url;
  useEffect(() => {
    if (!url) return;
    const abort = new AbortController();
    let made: string | null = null;
    memberMedia(url, abort.signal).then(
      (s) => {
        made = s;
        setSrc(s);
      },
      () => undefined,
    );
    return () => {
      abort.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  if (!src) return <Box sx={tileSx} />;
  return item.kind === "video" ? (
    <Box component="video" src={src} controls playsInline sx={tileSx} />
  ) : (
    <Box component="img" src={src} alt="" data-testid="library-member-image" sx={tileSx} />
  );
}

/**
 * An item's picture as this viewer may see it: a locked tile without any URL, members-only media fetched or streamed
 * with the viewer's credentials, public media as it is. The creator page and the "Following" feed show items alike.
 */
export function ItemMedia({ item, passReady }: { item: LibraryItem; passReady: boolean }) {
  const { t } = useTranslation();
  if (item.locked) {
    return (
      <Box
        data-testid="library-locked"
        sx={{
          ...tileSx,
          display: "grid",
          placeItems: "center",
          alignContent: "center",
          gap: 0.5,
          color: "text.secondary",
          textAlign: "center",
          p: 1,
          border: 1,
          borderColor: "divider",
        }}
      >
        <LockOutlinedIcon />
        <Typography variant="body2">{t("creators.membersOnly")}</Typography>
      </Box>
    );
  }
  return item.visibility === "members" ? (
    item.video_url ? (
      <MemberVideo item={item} passReady={passReady} />
    ) : (
      <MemberMedia item={item} />
    )
  ) : item.video_url ? (
    <Box component="video" src={item.video_url} poster={item.poster_url ?? undefined} controls playsInline preload="none" sx={tileSx} />
  ) : (
    <Box component="img" src={item.image_url ?? undefined} alt="" loading="lazy" sx={tileSx} />
  );
}

function Tile({
  item,
  owner,
  passReady,
  onUnpublish,
  onReport,
  onTip,
}: {
  item: LibraryItem;
  owner: boolean;
  passReady: boolean;
  onUnpublish: () => void;
  onReport: () => void;
  onTip: () => void;
}) {
  const { t } = useTranslation();
  const media = <ItemMedia item={item} passReady={passReady} />;
  // a locked tile is only the lock: nothing on it to report, tip or take off
  if (item.locked) return media;
  const corner = { position: "absolute", top: 6, right: 6, bgcolor: "rgba(0,0,0,0.55)", "&:hover": { bgcolor: "rgba(0,0,0,0.8)" } } as const;
  return (
    <Box data-testid="library-item" data-visibility={item.visibility} sx={{ position: "relative" }}>
      {media}
      {item.visibility === "members" && (
        <Box
          sx={{
            position: "absolute",
            left: 6,
            bottom: 6,
            maxWidth: "calc(100% - 12px)",
            display: "inline-flex",
            alignItems: "center",
            gap: 0.5,
            px: 1,
            py: 0.25,
            borderRadius: 999,
            bgcolor: "rgba(0,0,0,0.6)",
            color: "#fff",
          }}
        >
          <LockOutlinedIcon sx={{ fontSize: 16 }} />
          <Typography variant="caption" fontWeight={600} noWrap>
            {t("creators.membersOnly")}
          </Typography>
        </Box>
      )}
      {owner ? (
        <IconButton
          size="small"
          onClick={onUnpublish}
          aria-label={t("creators.unpublish")}
          title={t("creators.unpublish")}
          data-testid="library-unpublish"
          sx={corner}
        >
          <CloseIcon fontSize="small" />
        </IconButton>
      ) : (
        <>
          <IconButton size="small" onClick={onReport} aria-label={t("report.action")} title={t("report.action")} data-testid="report-open" sx={corner}>
            <FlagOutlinedIcon fontSize="small" />
          </IconButton>
          <IconButton
            size="small"
            onClick={onTip}
            aria-label={t("creators.tip")}
            title={t("creators.tip")}
            data-testid="library-tip"
            sx={{ ...corner, right: 44 }}
          >
            <VolunteerActivismOutlinedIcon fontSize="small" />
          </IconButton>
        </>
      )}
    </Box>
  );
}

/**
 * The page's library: public items, members-only items (locked tiles for non-members); the creator can take items off.
 * The page brings the first items; "show more" loads the next page until all `library_total` have been asked for.
 */
export function LibraryGrid({ page, onChanged }: { page: CreatorPageView; onChanged: () => void }) {
  const { t } = useTranslation();
  const [reporting, setReporting] = useState<number | null>(null);
  const [tipping, setTipping] = useState<number | null>(null);
  const { token } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [items, setItems] = useState(page.library);
  const [pages, setPages] = useState(1);
  // the page read again (a membership or library change): back to its first items
  useEffect(() => {
    setItems(page.library);
    setPages(1);
  }, [page.library]);
  const passReady = useMediaPass(items.some((i) => i.visibility === "members" && i.kind === "video" && !i.locked));
  async function more() {
    setError(null);
    try {
      const next = await creatorsApi.library(page.home_link, pages + 1, LIBRARY_PAGE_SIZE);
      setItems((shown) => appendNew(shown, next.list));
      setPages(pages + 1);
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }
  async function unpublish(id: number) {
    setError(null);
    try {
      await creatorsApi.unpublishItem(id);
      onChanged();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }
  return (
    <Box component="section" sx={{ display: "grid", gap: 1.5 }}>
      <Typography variant="h6" component="h2">
        {t("creators.library", { count: page.library_total })}
      </Typography>
      {page.library_locked > 0 && (
        <Typography variant="body2" color="text.secondary" data-testid="library-locked-count">
          {t("creators.lockedCount", { count: page.library_locked })}
        </Typography>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      {items.length === 0 ? (
        <Typography color="text.secondary" data-testid="creator-library-empty">
          {t(page.is_owner ? "creators.libraryEmptyOwner" : "creators.libraryEmpty")}
        </Typography>
      ) : (
        <Box
          data-testid="creator-library"
          sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", md: "repeat(4, minmax(0, 1fr))" }, gap: 1 }}
        >
          {items.map((item) => (
            <Tile
              key={item.id}
              item={item}
              owner={page.is_owner}
              passReady={passReady}
              onUnpublish={() => void unpublish(item.id)}
              onReport={() => setReporting(item.task_id)}
              onTip={() => (token ? setTipping(item.id) : dialogs.open("login"))}
            />
          ))}
        </Box>
      )}
      {pages * LIBRARY_PAGE_SIZE < page.library_total && <MoreButton label={t("creators.libraryMore")} onClick={() => void more()} testId="library-more" />}
      <Suspense fallback={null}>
        {reporting !== null && <ReportDialog target={{ type: "task", id: reporting }} onClose={() => setReporting(null)} onSent={onChanged} />}
        {tipping !== null && <TipDialog homeLink={page.home_link} title={page.title} itemId={tipping} onClose={() => setTipping(null)} />}
      </Suspense>
    </Box>
  );
}
