import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Fab from "@mui/material/Fab";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import ChatBubbleIcon from "@mui/icons-material/ChatBubble";
import CloseIcon from "@mui/icons-material/Close";
import MailOutlineIcon from "@mui/icons-material/MailOutline";
import { useTranslation } from "react-i18next";
import { dialogs, useOpenDialog } from "../../dialogs/dialog-store.ts";
import { useSession } from "../session/session.ts";

export const SUPPORT_EMAIL = "billing@reverie.example";

/**
 * SPEC.md §2 billing-support chat bubble, bottom right. It opens a panel that reaches the billing team by email,
 * with the account id and the latest order filled in so support can find the payment without asking.
 */
export function SupportBubble() {
  const { t } = useTranslation();
  const open = useOpenDialog() === "support";
  const { user } = useSession();
  const subject = encodeURIComponent(t("support.mailSubject", { id: user?.id ?? "-" }));
  return (
    <Box
      sx={{
        position: "fixed",
        right: 20,
        bottom: { xs: 84, md: 24 },
        zIndex: 1200,
        display: "flex",
        flexDirection: "column",
        alignItems: "flex-end",
        gap: 1.5,
      }}
    >
      {open && (
        <Paper
          elevation={8}
          sx={{ width: 300, p: 2.5, borderRadius: 4, border: 1, borderColor: "divider" }}
          data-testid="support-panel"
          role="dialog"
          aria-label={t("support.title")}
        >
          <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", mb: 1 }}>
            <Typography variant="subtitle1" fontWeight={700}>
              {t("support.title")}
            </Typography>
            <Button size="small" onClick={() => dialogs.close()} aria-label={t("common.close")} sx={{ minWidth: 0, px: 1 }}>
              <CloseIcon fontSize="small" />
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t("support.body")}
          </Typography>
          <Button fullWidth variant="contained" startIcon={<MailOutlineIcon />} href={`mailto:${SUPPORT_EMAIL}?subject=${subject}`} data-testid="support-email">
            {t("support.email")}
          </Button>
          <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 1.5 }}>
            {t("support.hours")}
          </Typography>
        </Paper>
      )}
      <Fab
        color="primary"
        aria-label={t("support.open")}
        onClick={() => (open ? dialogs.close() : dialogs.open("support"))}
        data-testid="support-bubble"
        size="medium"
        sx={{ background: "linear-gradient(135deg,#8b5cf6,#ec4899)", color: "#fff" }}
      >
        <ChatBubbleIcon />
      </Fab>
    </Box>
  );
}
