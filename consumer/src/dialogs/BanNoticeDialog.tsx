import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useState } from "react";
import type { StoredBanNotice } from "../lib/api-client.ts";
import { storage } from "../lib/storage.ts";
import { SUPPORT_EMAIL } from "../features/support/SupportBubble.tsx";

/**
 * Shown once after the API answered that this account is banned: what was decided, the reason staff gave, and how
 * to appeal (by writing to support, naming the account). The appeal process itself is trust-and-safety work.
 */
export default function BanNoticeDialog({ notice }: { notice: StoredBanNotice }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(true);
  const close = () => {
    storage.remove("ban_notice");
    setOpen(false);
  };
  const since = notice.banned_at ? new Intl.DateTimeFormat(i18n.language, { dateStyle: "long" }).format(new Date(notice.banned_at)) : null;
  const subject = encodeURIComponent(t("newcomer.ban.mailSubject", { account: notice.account ?? "-" }));
  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth data-testid="ban-notice" slotProps={{ paper: { sx: { mx: { xs: 1.5, sm: 4 }, width: { xs: "calc(100% - 24px)", sm: "calc(100% - 64px)" } } } }}>
      <DialogTitle>{t("newcomer.ban.title")}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 1.5 }}>
        <Alert severity="error">{t("msg.noLoginPermission")}</Alert>
        <Typography variant="body2" color="text.secondary">{since ? t("newcomer.ban.since", { date: since }) : t("newcomer.ban.decided")}</Typography>
        <Typography data-testid="ban-reason" sx={{ overflowWrap: "anywhere" }}>
          {notice.ban_reason ? t("newcomer.ban.reason", { reason: notice.ban_reason }) : t("newcomer.ban.noReason")}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="ban-appeal">
          {t("newcomer.ban.appeal")}{" "}
          <Link href={`mailto:${SUPPORT_EMAIL}?subject=${subject}`} data-testid="ban-appeal-email" sx={{ overflowWrap: "anywhere" }}>{SUPPORT_EMAIL}</Link>
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={close} data-testid="ban-close">{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
