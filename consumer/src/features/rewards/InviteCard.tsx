import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { usePermission } from "../session/Can.tsx";
import { inviteUrl, referralLink, type ReferralLink } from "./rewards.api.ts";

/** The account's invitation link with a copy button, what both sides get, and how many it brought (docs/decisions/302). */
export function InviteCard() {
  const { t } = useTranslation();
  const canInvite = usePermission({ permission: "read:Referral" });
  const [link, setLink] = useState<ReferralLink | null>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (canInvite)
      referralLink()
        .then(setLink)
        .catch(() => setLink(null));
  }, [canInvite]);
  if (!canInvite || !link) return null;
  const url = inviteUrl(link.code);
  const gifts = link.inviter_credits > 0 || link.invitee_credits > 0;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // no clipboard permission: the field stays selected for a manual copy
      (document.querySelector("[data-testid=invite-link] input") as HTMLInputElement | null)?.select();
    }
  }

  return (
    <Box sx={{ display: "grid", gap: 1.5 }} data-testid="invite">
      <Typography sx={{ fontWeight: 700 }}>{t("rewards.invite.heading")}</Typography>
      <Typography variant="body2" color="text.secondary">
        {gifts ? t("rewards.invite.gifts", { you: link.inviter_credits, friend: link.invitee_credits }) : t("rewards.invite.noGifts")}
      </Typography>
      <Box sx={{ display: "flex", gap: 1, alignItems: "center", minWidth: 0 }}>
        <TextField
          size="small"
          value={url}
          slotProps={{ htmlInput: { readOnly: true, "aria-label": t("rewards.invite.heading") } }}
          sx={{ flex: "1 1 auto", minWidth: 0 }}
          data-testid="invite-link"
        />
        <Button variant="contained" onClick={() => void copy()} data-testid="invite-copy">
          {copied ? t("rewards.invite.copied") : t("rewards.invite.copy")}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t("rewards.invite.counts", { invited: link.invited, rewarded: link.rewarded })}
      </Typography>
    </Box>
  );
}
