import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../../i18n/index.ts";
import { useSession } from "../session/session.ts";
import { digestSetting, setDigest } from "./notifications.api.ts";

/** The account area's email digest: off until the person turns it on; an account without an email cannot have one. */
export default function DigestSection() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => void digestSetting().then(setOn, () => setOn(false)), []);
  if (!user) return null;

  const change = (next: boolean) => {
    setError(null);
    setOn(next);
    void setDigest(next).then(setOn, (e: Error) => {
      setOn(!next);
      setError(translateMessage(e.message));
    });
  };

  return (
    <Box sx={{ display: "grid", gap: 1 }} data-testid="digest-section">
      <FormControlLabel
        control={<Switch checked={on ?? false} disabled={on === null || !user.email} onChange={(e) => change(e.target.checked)} data-testid="digest-switch" />}
        label={t("notifications.digest.label")}
      />
      <Typography variant="body2" color="text.secondary">
        {user.email ? t("notifications.digest.hint") : t("notifications.digest.noEmail")}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
    </Box>
  );
}
