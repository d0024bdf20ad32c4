import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import { translateMessage } from "../i18n/index.ts";
import { session } from "../features/session/session.ts";
import { MessagePage } from "./MessagePage.tsx";

/** Google sends the browser back here with an authorization code; the server exchanges and verifies it. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const code = params.get("code");
    if (!code) {
      setError(translateMessage("Sorry, you do not have login permission"));
      return;
    }
    session
      .googleLogin({ code })
      .then(() => navigate("/creationStudio", { replace: true }))
      .catch((e: Error) => setError(translateMessage(e.message)));
  }, [params, navigate]);

  if (error) return <MessagePage mark={t("googleCallback.mark")} title={t("googleCallback.failed")} body={error} testId="google-failed" />;
  return (
    <Box sx={{ py: 14, textAlign: "center" }}>
      <CircularProgress />
      <Typography color="text.secondary" sx={{ mt: 2 }}>
        {t("googleCallback.signingIn")}
      </Typography>
    </Box>
  );
}
