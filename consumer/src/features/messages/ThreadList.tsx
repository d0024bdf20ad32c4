import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { Side, ThreadView } from "./messages.api.ts";

/**
 * The caller's threads on one side, newest first: who it is with, the last message shown, and what the caller has not
 * read. With none, the side's own words: a fan is told how to start, a creator how fans' conversations arrive.
 */
export function ThreadList(p: { threads: ThreadView[] | null; side: Side; selected: number | null; onSelect: (id: number) => void }) {
  const { threads, selected, onSelect } = p;
  const { t } = useTranslation();
  if (threads === null) return null;
  if (threads.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }} data-testid="threads-empty" data-side={p.side}>
        {t(p.side === "creator" ? "messages.noThreadsCreator" : "messages.noThreads")}
      </Typography>
    );
  return (
    <Box sx={{ display: "grid", overflowY: "auto" }} data-testid="thread-list">
      {threads.map((th) => (
        <ButtonBase
          key={th.id}
          onClick={() => onSelect(th.id)}
          data-testid="thread-row"
          data-unread={th.unread}
          sx={{
            display: "flex",
            gap: 1.5,
            justifyContent: "space-between",
            textAlign: "left",
            p: 1.5,
            borderBottom: 1,
            borderColor: "divider",
            bgcolor: th.id === selected ? "action.selected" : "transparent",
          }}
        >
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography noWrap sx={{ fontWeight: th.unread ? 700 : 500 }}>
              {th.as === "fan" ? th.title : th.fan_name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {th.blocked ? t("messages.blockedShort") : (th.last_body ?? t("messages.attachment"))}
            </Typography>
          </Box>
          <Badge color="primary" badgeContent={th.unread} sx={{ mr: 1 }} />
        </ButtonBase>
      ))}
    </Box>
  );
}
