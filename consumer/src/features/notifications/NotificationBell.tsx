import { Suspense, useEffect, useState } from "react";
import Badge from "@mui/material/Badge";
import IconButton from "@mui/material/IconButton";
import NotificationsIcon from "@mui/icons-material/Notifications";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { lazyView } from "../../i18n/index.ts";
import { refreshUnread, useUnread } from "./notifications.api.ts";

const NotificationsPanel = lazyView(() => import("./NotificationsPanel.tsx"));

/**
 * The bell of a signed-in account: the unread count, asked for on load, on each navigation and when the tab is back
 * in focus (the event stream will push it once it carries per-account events); the panel loads when opened.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const unread = useUnread();
  const { pathname, search } = useLocation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useEffect(() => void refreshUnread(), [pathname, search]);
  useEffect(() => {
    const onFocus = () => void refreshUnread();
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, []);
  return (
    <>
      <IconButton
        color="inherit"
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label={unread ? t("bell.unread", { count: unread }) : t("bell.title")}
        data-testid="bell"
        data-unread={unread}
        sx={{ p: { xs: 0.5, sm: 1 } }}
      >
        <Badge badgeContent={unread} color="secondary" max={99}>
          <NotificationsIcon fontSize="small" />
        </Badge>
      </IconButton>
      {anchor && (
        <Suspense fallback={null}>
          <NotificationsPanel anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
