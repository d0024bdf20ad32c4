import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import FavoriteIcon from "@mui/icons-material/Favorite";
import LockOpenIcon from "@mui/icons-material/LockOpen";
import MailIcon from "@mui/icons-material/Mail";
import PersonAddIcon from "@mui/icons-material/PersonAdd";
import VolunteerActivismIcon from "@mui/icons-material/VolunteerActivism";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { NotificationKind } from "../../../../server/src/contract/notifications.ts";
import { linkOf, markAllRead, markRead, notifications, type NotificationLine } from "./notifications.api.ts";

const ICONS: Record<NotificationKind, typeof FavoriteIcon> = {
  like: FavoriteIcon,
  remix: AutorenewIcon,
  follow: PersonAddIcon,
  tip: VolunteerActivismIcon,
  message: MailIcon,
  unlock: LockOpenIcon,
};

/** One line's words: the latest actor by name for one event ("someone" for a guest), the count for several. */
function useLineText() {
  const { t } = useTranslation();
  return (l: NotificationLine) =>
    l.count === 1
      ? t(`notifications.one.${l.kind}`, { who: l.actor ?? t("notifications.someone"), amount: l.amount })
      : t(`notifications.many.${l.kind}`, { count: l.count, amount: l.amount });
}

/** The bell's panel: the account's lines, latest first; opening one marks it read and goes to what it is about. */
export default function NotificationsPanel({ anchor, onClose }: { anchor: HTMLElement; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const text = useLineText();
  const [lines, setLines] = useState<NotificationLine[] | null>(null);
  const [page, setPage] = useState({ next: 1, total: 0 });
  const load = (n: number) =>
    void notifications(n)
      .then((a) => {
        setLines((shown) => [...(n === 1 ? [] : (shown ?? [])), ...a.list]);
        setPage({ next: n + 1, total: a.total });
      })
      .catch(() => setLines((shown) => shown ?? []));
  useEffect(() => load(1), []);

  const open = (l: NotificationLine) => {
    onClose();
    if (!l.read) void markRead(l.id).catch(() => undefined);
    navigate(linkOf(l));
  };
  const readAll = () => void markAllRead().then(() => setLines((shown) => shown?.map((l) => ({ ...l, read: true })) ?? null));
  const when = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

  return (
    <Popover
      open
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
      slotProps={{ paper: { sx: { width: 360, maxWidth: "calc(100vw - 16px)", maxHeight: "70vh" }, "data-testid": "notifications-panel" } as object }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, px: 2, py: 1, borderBottom: 1, borderColor: "divider" }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, flex: 1, minWidth: 0 }}>
          {t("bell.title")}
        </Typography>
        {lines?.some((l) => !l.read) && (
          <Button size="small" onClick={readAll} data-testid="notifications-read-all" sx={{ flexShrink: 0 }}>
            {t("notifications.readAll")}
          </Button>
        )}
      </Box>
      {lines?.length === 0 && (
        <Typography color="text.secondary" sx={{ p: 2 }} data-testid="notifications-empty">
          {t("notifications.empty")}
        </Typography>
      )}
      <List dense disablePadding>
        {lines?.map((l) => {
          const Icon = ICONS[l.kind];
          return (
            <ListItemButton
              key={l.id}
              onClick={() => open(l)}
              data-testid={`notification-${l.id}`}
              sx={{ bgcolor: l.read ? undefined : "rgba(167,139,250,0.08)" }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <Icon fontSize="small" color={l.read ? "disabled" : "secondary"} />
              </ListItemIcon>
              <ListItemText
                primary={text(l)}
                secondary={when(l.updated_at)}
                slotProps={{ primary: { sx: { fontWeight: l.read ? 400 : 700, overflowWrap: "anywhere" } } }}
              />
            </ListItemButton>
          );
        })}
      </List>
      {lines && lines.length < page.total && (
        <Button fullWidth onClick={() => load(page.next)} data-testid="notifications-more">
          {t("notifications.more")}
        </Button>
      )}
    </Popover>
  );
}
