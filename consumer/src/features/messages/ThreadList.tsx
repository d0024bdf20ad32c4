import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { ThreadView } from "./messages.api.ts";

/** The caller's threads, newest first: who it is with, the last message shown, and what the caller has not read. */
export function ThreadList({ threads, selected, onSelect }: { threads: ThreadView[] | null; selected: number | null; onSelect: (id: number) => void }) {
  const { t } = useTranslation();
  if (threads === null) return null;
  if (threads.length === 0)
    return (
      <Typography color="text.secondary" sx={{ p: 2 }} data-testid="threads-empty">
        {t("messages.noThreads")}
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
