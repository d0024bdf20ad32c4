import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { unsubscribe } from "../features/notifications/notifications.api.ts";
import { translateMessage } from "../i18n/index.ts";

/** /unsubscribe?token=…: the digest email's link; stops the digests without signing in (the token is signed). */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [state, setState] = useState<{ done?: boolean; error?: string }>({});
  useEffect(() => {
    void unsubscribe(params.get("token") ?? "").then(
      () => setState({ done: true }),
      (e: Error) => setState({ error: translateMessage(e.message) }),
    );
  }, [params]);
  return (
    <Box sx={{ maxWidth: 560, mx: "auto", px: 2, py: { xs: 4, md: 6 }, display: "grid", gap: 2 }} data-testid="unsubscribe-page">
      <Typography variant="h5" component="h1">
        {t("notifications.digest.title")}
      </Typography>
      {!state.done && !state.error && <CircularProgress size={28} />}
      {state.done && <Alert severity="success">{t("notifications.digest.unsubscribed")}</Alert>}
      {state.error && <Alert severity="error">{state.error}</Alert>}
    </Box>
  );
}
