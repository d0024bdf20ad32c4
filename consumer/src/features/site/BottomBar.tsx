import BottomNavigation from "@mui/material/BottomNavigation";
import BottomNavigationAction from "@mui/material/BottomNavigationAction";
import Paper from "@mui/material/Paper";
import AddCircleIcon from "@mui/icons-material/AddCircle";
import HomeIcon from "@mui/icons-material/Home";
import MovieFilterIcon from "@mui/icons-material/MovieFilter";
import BoltIcon from "@mui/icons-material/Bolt";
import VideoLibraryIcon from "@mui/icons-material/VideoLibrary";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { session } from "../session/session.ts";

/**
 * Five actions share a 360 px phone: MUI's 80 px minimum per action would push the outer two off screen, and
 * Japanese and Korean labels would break inside a word, so labels break only at spaces (keep-all) and stay short.
 */
const BAR = {
  bgcolor: "transparent",
  "& .MuiBottomNavigationAction-root": { minWidth: 0, flex: "1 1 0", px: 0.25 },
  "& .MuiBottomNavigationAction-label": { fontSize: "0.7rem", lineHeight: 1.15, wordBreak: "keep-all", overflowWrap: "normal", textAlign: "center" },
  "& .MuiBottomNavigationAction-label.Mui-selected": { fontSize: "0.72rem" },
} as const;

/**
 * SPEC.md §2 bottom bar, on phones: Video, HomeLink, Results, Buy Credits, Video Plus. "Video" is the photo-to-video
 * studio; "Video Plus" is the video that needs no photo, made from words (text to video, decision 274).
 */
export function BottomBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const current =
    pathname === "/creationStudio"
      ? search.includes("mode=text_to_video")
        ? "videoPlus"
        : "video"
      : pathname === "/function"
        ? "results"
        : pathname === "/home"
          ? "homeLink"
          : false;

  /**
   * SPEC.md §2 HomeLink (issue 16): a creator's own page; a saved account (registered, or the messaging channel's,
   * decision 373) without one goes to make one (issue 30: no training needed); a guest goes home.
   */
  async function openHomeLink() {
    const type = session.get().user?.type;
    if (!type || type === "visitor") return navigate("/home");
    const { creatorsApi } = await import("../creators/creators.api.ts");
    const page = await creatorsApi.mine().catch(() => null);
    navigate(page ? `/${page.home_link}` : "/creator");
  }

  return (
    <Paper
      elevation={0}
      sx={{
        position: "fixed",
        bottom: 0,
        left: 0,
        right: 0,
        display: { xs: "block", md: "none" },
        borderTop: 1,
        borderColor: "divider",
        zIndex: 1100,
        bgcolor: "rgba(20,20,31,0.92)",
        backdropFilter: "blur(14px)",
        pb: "env(safe-area-inset-bottom)",
      }}
    >
      <BottomNavigation showLabels value={current} sx={BAR}>
        <BottomNavigationAction
          value="video"
          label={t("bottomBar.video")}
          icon={<MovieFilterIcon />}
          onClick={() => navigate("/creationStudio")}
          data-testid="bottom-video"
        />
        <BottomNavigationAction
          value="homeLink"
          label={t("bottomBar.homeLink")}
          icon={<HomeIcon />}
          onClick={() => void openHomeLink()}
          data-testid="bottom-home"
        />
        <BottomNavigationAction
          value="results"
          label={t("bottomBar.results")}
          icon={<VideoLibraryIcon />}
          onClick={() => navigate("/function")}
          data-testid="bottom-results"
        />
        <BottomNavigationAction
          value="buyCredits"
          label={t("bottomBar.buyCredits")}
          icon={<BoltIcon />}
          onClick={() => dialogs.open("buyCredits")}
          data-testid="bottom-buy"
        />
        <BottomNavigationAction
          value="videoPlus"
          label={t("bottomBar.videoPlus")}
          icon={<AddCircleIcon />}
          onClick={() => navigate("/creationStudio?mode=text_to_video")}
          data-testid="bottom-video-plus"
        />
      </BottomNavigation>
    </Paper>
  );
}
