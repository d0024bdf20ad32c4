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
import { AppealForm } from "../features/notices/AppealForm.tsx";
import { DecisionSummary } from "../features/notices/DecisionSummary.tsx";
import type { AppealStatus } from "../../../server/src/contract/moderation.ts";

/**
 * Shown once after the API answered that this account is banned: the statement of reasons (what was decided, on what
 * ground, whether automatically, the reason staff gave) and the appeal, filed here with the statement's key since the
 * account has no login left. Bans from before statements existed keep the old way: write to support.
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
    <Dialog
      open={open}
      onClose={close}
      maxWidth="xs"
      fullWidth
      data-testid="ban-notice"
      slotProps={{ paper: { sx: { mx: { xs: 1.5, sm: 4 }, width: { xs: "calc(100% - 24px)", sm: "calc(100% - 64px)" } } } }}
    >
      <DialogTitle>{t("newcomer.ban.title")}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 1.5 }}>
        <Alert severity="error">{t("msg.noLoginPermission")}</Alert>
        <Typography variant="body2" color="text.secondary">
          {since ? t("newcomer.ban.since", { date: since }) : t("newcomer.ban.decided")}
        </Typography>
        <Typography data-testid="ban-reason" sx={{ overflowWrap: "anywhere" }}>
          {notice.ban_reason ? t("newcomer.ban.reason", { reason: notice.ban_reason }) : t("newcomer.ban.noReason")}
        </Typography>
        {notice.decision ? (
          <>
            <DecisionSummary ground={notice.decision.ground} automated={notice.decision.automated} />
            <AppealForm
              id={notice.decision.id}
              appealKey={notice.decision.appeal_key}
              status={notice.decision.appeal_status as AppealStatus | null}
              reversed={false}
            />
          </>
        ) : (
          <Typography variant="body2" color="text.secondary" data-testid="ban-appeal">
            {t("newcomer.ban.appeal")}{" "}
            <Link href={`mailto:${SUPPORT_EMAIL}?subject=${subject}`} data-testid="ban-appeal-email" sx={{ overflowWrap: "anywhere" }}>
              {SUPPORT_EMAIL}
            </Link>
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} data-testid="ban-close">
          {t("common.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
