import type { ReactNode } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { accentGradient } from "../theme.ts";

/** The shared look of the not-found, no-permission and error pages: a big mark, a line of text and a way home. */
export function MessagePage({ mark, title, body, testId, children }: { mark: string; title: string; body: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ maxWidth: 560, mx: "auto", px: 3, py: { xs: 10, md: 14 }, textAlign: "center" }} data-testid={testId}>
      <Typography
        sx={{ fontSize: { xs: 88, md: 120 }, fontWeight: 900, lineHeight: 1, background: accentGradient, WebkitBackgroundClip: "text", color: "transparent" }}
      >
        {mark}
      </Typography>
      <Typography variant="h4" sx={{ mt: 2 }}>
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5 }}>
        {body}
      </Typography>
      <Box sx={{ mt: 4, display: "flex", gap: 1.5, justifyContent: "center" }}>
        <Button variant="contained" size="large" component={RouterLink} to="/home" data-testid="back-home">
          {t("common.backHome")}
        </Button>
        {children}
      </Box>
    </Box>
  );
}
