import { Suspense } from "react";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { ACCOUNT_SECTIONS } from "../features/account/sections.ts";

/** /account: what is under the avatar — the profile, purchases, the plan, and the sections other features add. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 820, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 3, md: 5 } }} data-testid="account-page">
      <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 28, md: 38 }, mb: 2 }}>
        {t("account.title")}
      </Typography>
      <Box component="nav" aria-label={t("account.title")} sx={{ display: "flex", flexWrap: "wrap", gap: 1, mb: 3 }}>
        {ACCOUNT_SECTIONS.map((s) => (
          <Chip key={s.id} component="a" href={`#${s.id}`} clickable label={t(s.titleKey)} variant="outlined" />
        ))}
      </Box>
      {ACCOUNT_SECTIONS.map(({ id, titleKey, Component: Section }) => (
        <Paper key={id} id={id} component="section" variant="outlined" sx={{ p: { xs: 2, md: 3 }, mb: 3, borderRadius: 3, scrollMarginTop: 72 }}>
          <Typography variant="h5" component="h2" sx={{ mb: 2, fontSize: { xs: 20, md: 24 } }}>
            {t(titleKey)}
          </Typography>
          <Suspense fallback={<CircularProgress size={24} />}>
            <Section />
          </Suspense>
        </Paper>
      ))}
    </Box>
  );
}
