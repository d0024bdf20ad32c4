import { lazy, Suspense, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { consent, useConsent, useConsentSettingsOpen } from "./consent.ts";

// the switches are fetched only when the visitor wants to choose: the banner itself stays small
const ConsentChoices = lazy(() => import("./ConsentChoices.tsx"));

/**
 * Asked once, after the age gate: accept, reject, or choose per purpose. Not a modal — the page stays usable —
 * but nothing of a third party loads until it is answered. It sits above the page and below dialogs (MUI modal
 * 1300). The footer's "Cookie settings" opens it again.
 */
export default function ConsentBanner() {
  const { t } = useTranslation();
  const current = useConsent();
  const reopened = useConsentSettingsOpen();
  const [choosing, setChoosing] = useState(reopened);
  const [picked, setPicked] = useState({ analytics: current?.analytics ?? false, advertising: current?.advertising ?? false });
  if (current && !reopened) return null;
  const showChoices = choosing || reopened;

  return (
    <Paper
      elevation={12}
      role="region"
      aria-labelledby="consent-title"
      data-testid="consent-banner"
      sx={{
        position: "fixed",
        zIndex: 1250,
        left: { xs: 8, sm: 16 },
        right: { xs: 8, sm: "auto" },
        bottom: { xs: 80, md: 16 },
        maxWidth: { sm: 460 },
        p: 2.5,
        borderRadius: 3,
      }}
    >
      <Typography id="consent-title" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {t("consent.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
        {t("consent.body")}
      </Typography>
      {showChoices && (
        <Suspense fallback={null}>
          <ConsentChoices picked={picked} onChange={setPicked} />
        </Suspense>
      )}
      <Box sx={{ mt: 2, display: "flex", flexWrap: "wrap", gap: 1, justifyContent: "flex-end" }}>
        {showChoices ? (
          <Button variant="outlined" size="small" data-testid="consent-save" onClick={() => consent.decide(picked)}>
            {t("consent.save")}
          </Button>
        ) : (
          <Button color="inherit" size="small" data-testid="consent-choose" onClick={() => setChoosing(true)}>
            {t("consent.choose")}
          </Button>
        )}
        <Button variant="outlined" size="small" data-testid="consent-reject" onClick={() => consent.decide({ analytics: false, advertising: false })}>
          {t("consent.reject")}
        </Button>
        <Button variant="contained" size="small" data-testid="consent-accept" onClick={() => consent.decide({ analytics: true, advertising: true })}>
          {t("consent.accept")}
        </Button>
      </Box>
    </Paper>
  );
}
