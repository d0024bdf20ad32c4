import { useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CREATOR_MEMBERSHIP_PERIOD_DAYS } from "../../../../server/src/contract/creators.ts";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { NOT_ENOUGH_CREDITS } from "../generation/generation.api.ts";
import { session } from "../session/session.ts";
import { creatorsApi, type CreatorPageView } from "./creators.api.ts";
import { useSpendConfirm } from "./SpendConfirm.tsx";

/**
 * A fan's side of a page's paid membership (decision 204): the price a month and joining, confirmed as every spend on
 * a creator is, saying that it renews, when and for how much; for a member, the next renewal and cancelling; for a
 * cancelled member, the day access ends and resuming. `onChanged` reloads the page, so members-only items unlock (or
 * lock) at once.
 */
export function MembershipOffer({
  page,
  signedIn,
  onSignIn,
  onChanged,
}: {
  page: CreatorPageView;
  signedIn: boolean;
  onSignIn: () => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const m = page.membership?.member ? page.membership : null;
  const spend = useSpendConfirm();
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso));

  async function act(action: () => Promise<unknown>) {
    if (!signedIn) return onSignIn();
    setBusy(true);
    setError(null);
    try {
      await action();
      void session.refreshBalance();
      onChanged();
    } catch (e) {
      const text = (e as Error).message;
      // SPEC's words stay, and the way to get credits opens, as everywhere a spend falls short (issue 46 item 16)
      if (text === NOT_ENOUGH_CREDITS) dialogs.open("buyCredits");
      setError(translateMessage(text));
    } finally {
      setBusy(false);
    }
  }

  const resume = () => act(() => creatorsApi.join(page.home_link));
  const join = (price: number) => {
    if (!signedIn) return onSignIn();
    spend.confirm({
      what: t("creators.spend.join", { name: page.title }),
      amount: price,
      renews: { next: new Date(Date.now() + CREATOR_MEMBERSHIP_PERIOD_DAYS * 86_400_000), days: CREATOR_MEMBERSHIP_PERIOD_DAYS },
      pay: async () => {
        await creatorsApi.join(page.home_link);
        onChanged();
      },
      onShort: setError,
    });
  };
  const offered = page.membership_price;
  const price = m?.price ?? offered ?? 0;
  return (
    <Box
      component="section"
      data-testid="membership"
      data-status={m?.status ?? "none"}
      sx={{ display: "grid", gap: 1.25, p: 2, border: 1, borderColor: "primary.main", borderRadius: 2 }}
    >
      <Typography variant="h6" component="h2">
        {t("creators.membershipTitle", { count: price })}
      </Typography>
      {!m && (
        <Typography variant="body2" color="text.secondary">
          {t("creators.membershipHelp", { days: CREATOR_MEMBERSHIP_PERIOD_DAYS })}
        </Typography>
      )}
      {m?.status === "active" && <Typography data-testid="membership-state">{t("creators.membershipRenews", { date: date(m.paid_through) })}</Typography>}
      {m?.status === "cancelled" && <Typography data-testid="membership-state">{t("creators.membershipUntil", { date: date(m.paid_through) })}</Typography>}
      {error && (
        <Alert severity="error" data-testid="membership-error">
          {error}
        </Alert>
      )}
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        {!m && offered !== null && (
          <Button variant="contained" disabled={busy} onClick={() => join(offered)} data-testid="membership-join">
            {t("creators.membershipJoin", { count: offered })}
          </Button>
        )}
        {m?.status === "active" && (
          <Button variant="outlined" disabled={busy} onClick={() => void act(() => creatorsApi.cancel(page.home_link))} data-testid="membership-cancel">
            {t("creators.membershipCancel")}
          </Button>
        )}
        {m?.status === "cancelled" && page.membership_price !== null && (
          <Button variant="contained" disabled={busy} onClick={() => void resume()} data-testid="membership-resume">
            {t("creators.membershipResume")}
          </Button>
        )}
      </Box>
      {spend.dialog}
    </Box>
  );
}
