import { useEffect, useState, type ReactNode } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import AutorenewIcon from "@mui/icons-material/Autorenew";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { cancelMembership, currentMembership, resumeMembership, type Membership } from "./payments.api.ts";

/**
 * The member's plan (on /function and in the account's Plan section): what it is, when it renews next or runs out,
 * and cancelling or resuming it where its provider allows. `empty` shows when there is none (nothing by default).
 */
export function MembershipCard({ empty = null }: { empty?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [membership, setMembership] = useState<Membership | null | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    currentMembership()
      .then(setMembership)
      .catch(() => setMembership(null));
  }, []);
  if (membership === undefined) return null;
  if (membership === null) return <>{empty}</>;

  const date = (iso: string | null) => (iso ? new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso)) : "");

  async function change(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      // the provider's word may add what the change answer lacks (the plan's name, what it allows now)
      setMembership(await currentMembership());
      setConfirming(false);
    } catch (e) {
      setError(translateMessage((e as Error).message));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box
      data-testid="membership"
      data-status={membership.status}
      sx={{ mb: 3, p: 2, borderRadius: 3, border: "1px solid", borderColor: "divider", display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}
    >
      <AutorenewIcon color="primary" />
      <Box sx={{ flex: "1 1 200px", minWidth: 0 }}>
        <Typography sx={{ fontWeight: 700 }}>{t("membership.title", { credits: membership.credits_per_period })}</Typography>
        {membership.product_name && (
          <Typography variant="body2" data-testid="membership-what">
            {t("membership.what", { name: membership.product_name, price: membership.price_text, days: membership.interval_days })}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary" data-testid="membership-when">
          {membership.status === "active"
            ? t("membership.renews", { date: date(membership.next_renewal_at) })
            : t("membership.ends", { date: date(membership.ends_at) })}
        </Typography>
        {membership.provider_page && (
          <Link href={membership.provider_page} variant="body2" data-testid="membership-provider-page">
            {t("membership.providerPage")}
          </Link>
        )}
      </Box>
      {membership.can_cancel &&
        (confirming ? (
          <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
            <Button size="small" onClick={() => setConfirming(false)}>
              {t("membership.keep")}
            </Button>
            <Button
              size="small"
              color="error"
              variant="contained"
              disabled={busy}
              onClick={() => void change(cancelMembership)}
              data-testid="membership-cancel-confirm"
            >
              {t("membership.confirmCancel")}
            </Button>
          </Box>
        ) : (
          <Button size="small" variant="outlined" onClick={() => setConfirming(true)} data-testid="membership-cancel">
            {t("membership.cancel")}
          </Button>
        ))}
      {membership.can_resume && (
        <Button size="small" variant="contained" disabled={busy} onClick={() => void change(resumeMembership)} data-testid="membership-resume">
          {t("membership.resume")}
        </Button>
      )}
      {confirming && (
        <Typography variant="body2" sx={{ flexBasis: "100%" }}>
          {t("membership.cancelNote")}
        </Typography>
      )}
      {error && (
        <Alert severity="error" sx={{ flexBasis: "100%" }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
