import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { translateMessage } from "../../i18n/index.ts";
import { usePermission } from "../session/Can.tsx";
import { session } from "../session/session.ts";
import { checkIn, checkInStatus, setTimeZone, timeZones, type CheckInStatus } from "./rewards.api.ts";

/** The account's day: the zone its gift is counted in, changed here (the first check-in stored the browser's). */
function TimeZoneSetting({ zone, onChanged }: { zone: string; onChanged: () => void }) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  async function change(next: string) {
    try {
      await setTimeZone(next);
      onChanged();
    } catch (e) {
      setError(translateMessage((e as Error).message));
    }
  }
  return (
    <Box>
      <TextField
        select
        size="small"
        label={t("rewards.daily.timeZone")}
        value={zone}
        onChange={(e) => void change(e.target.value)}
        sx={{ minWidth: 220, maxWidth: "100%" }}
        data-testid="time-zone"
      >
        {timeZones(zone).map((z) => (
          <MenuItem key={z} value={z}>
            {z}
          </MenuItem>
        ))}
      </TextField>
      {error && <Alert severity="error">{error}</Alert>}
    </Box>
  );
}

/** The daily gift (docs/decisions/302): take today's credits once a day; the streak and the month's count beside it. */
export function DailyGiftCard() {
  const { t } = useTranslation();
  const canCheckIn = usePermission({ permission: "create:CheckIn" });
  const [status, setStatus] = useState<CheckInStatus | null>(null);
  const [state, setState] = useState<{ busy?: boolean; error?: string; gained?: number }>({});
  const load = () =>
    checkInStatus()
      .then(setStatus)
      .catch(() => setStatus(null));
  useEffect(() => {
    void load();
  }, []);
  if (!status) return null;
  if (!status.enabled) return <Typography color="text.secondary">{t("rewards.daily.off")}</Typography>;

  async function take() {
    setState({ busy: true });
    try {
      const r = await checkIn();
      setState({ gained: r.credits });
      await Promise.all([load(), session.refreshBalance()]);
    } catch (e) {
      setState({ error: translateMessage((e as Error).message) });
      await load();
    }
  }

  const taken = status.checked_in_today;
  return (
    <Box sx={{ display: "grid", gap: 1.5 }} data-testid="daily-gift" data-checked-in={taken ? "1" : "0"}>
      <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 1.5 }}>
        <Box sx={{ flex: "1 1 200px", minWidth: 0 }}>
          <Typography sx={{ fontWeight: 700 }}>{t("rewards.daily.offer", { count: status.credits })}</Typography>
          <Typography variant="body2" color="text.secondary">
            {status.streak > 0 ? t("rewards.daily.streak", { count: status.streak }) : t("rewards.daily.startStreak")}
            {status.month_cap > 0 && ` · ${t("rewards.daily.month", { count: status.month_count, cap: status.month_cap })}`}
          </Typography>
        </Box>
        {canCheckIn ? (
          <Button variant="contained" disabled={taken || state.busy} onClick={() => void take()} data-testid="check-in" data-keep-clear>
            {taken ? t("rewards.daily.taken") : t("rewards.daily.checkIn")}
          </Button>
        ) : (
          <Button variant="outlined" onClick={() => dialogs.open("login")} data-testid="check-in-save">
            {t("rewards.daily.saveFirst")}
          </Button>
        )}
      </Box>
      {state.gained !== undefined && <Alert severity="success">{t("rewards.daily.gained", { count: state.gained })}</Alert>}
      {state.error && <Alert severity="info">{state.error}</Alert>}
      {canCheckIn && <TimeZoneSetting zone={status.time_zone} onChanged={() => void load()} />}
    </Box>
  );
}
