import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { ItemMedia, useMediaPass } from "../creators/Library.tsx";
import { usePermission } from "../session/Can.tsx";
import { getFeed, type FeedEntry } from "./gallery.api.ts";

/**
 * The "Subscriptions" tab of the home gallery (docs/decisions/309): the newest shared creations and library items of
 * the creators one subscribes to, shown as their pages show them (members-only items locked unless one is a member).
 * Each entry names its creator, whose page it opens. A guest is asked to save the account first.
 */
export default function FollowingFeed() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canFollow = usePermission({ permission: "create:Follow" });
  const [entries, setEntries] = useState<FeedEntry[] | null>(null);
  useEffect(() => {
    if (!canFollow) return;
    getFeed()
      .then(setEntries)
      .catch(() => setEntries([]));
  }, [canFollow]);
  const passReady = useMediaPass(Boolean(entries?.some((e) => e.visibility === "members" && !e.locked && e.video_url)));

  if (!canFollow) {
    return (
      <Box sx={{ py: 4, display: "grid", gap: 1.5, justifyItems: "center", textAlign: "center" }} data-testid="feed-guest">
        <Typography color="text.secondary">{t("gallery.feedGuest")}</Typography>
        <Button variant="outlined" onClick={() => dialogs.open("login")} data-testid="feed-sign-in">
          {t("saveAccount.action")}
        </Button>
      </Box>
    );
  }
  if (entries?.length === 0) {
    return (
      <Typography color="text.secondary" sx={{ py: 4, textAlign: "center" }} data-testid="feed-empty">
        {t("gallery.feedEmpty")}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "repeat(2, 1fr)", sm: "repeat(3, 1fr)", md: "repeat(4, 1fr)" }, gap: 1.5 }} data-testid="feed">
      {entries === null
        ? Array.from({ length: 4 }, (_, i) => <Skeleton key={i} variant="rounded" sx={{ aspectRatio: "3 / 4", height: "auto", borderRadius: 1.5 }} />)
        : entries.map((e) => (
            <Box key={`${e.source}-${e.id}`} sx={{ display: "grid", gap: 0.5, minWidth: 0 }} data-testid="feed-entry" data-locked={e.locked}>
              <ItemMedia item={e} passReady={passReady} />
              <Button
                size="small"
                color="inherit"
                onClick={() => navigate(`/${e.creator.home_link}`)}
                sx={{ justifyContent: "flex-start", px: 0.5, minWidth: 0 }}
                data-testid="feed-creator"
              >
                <Box component="span" sx={{ overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" }}>
                  {t("gallery.by", { name: e.creator.title })}
                </Box>
              </Button>
            </Box>
          ))}
    </Box>
  );
}
