import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { consent } from "../consent/consent.ts";

/** SPEC.md §2 footer: each entry is a section of the agreement page. */
export const FOOTER_SECTIONS = ["about", "legal", "terms", "privacy", "disclaimer", "returnPolicy", "contact"] as const;

export function Footer() {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: "divider", mt: 8, py: 4, px: { xs: 2, md: 3 }, pb: { xs: 20, md: 4 } }}>
      <Box sx={{ maxWidth: 1152, mx: "auto", display: "flex", flexWrap: "wrap", gap: 3, alignItems: "center", justifyContent: "space-between" }}>
        <Box component="nav" sx={{ display: "flex", flexWrap: "wrap", gap: 2.5 }} aria-label={t("footer.label")}>
          {FOOTER_SECTIONS.map((s) => (
            <Link key={s} component={RouterLink} to={`/agreement#${s}`} color="text.secondary" variant="body2" data-testid={`footer-${s}`}>
              {t(`footer.${s}`)}
            </Link>
          ))}
          <Link component={RouterLink} to="/report-content" color="text.secondary" variant="body2" data-testid="footer-report-content">
            {t("footer.reportContent")}
          </Link>
          <Link component={RouterLink} to="/notices" color="text.secondary" variant="body2" data-testid="footer-notices">
            {t("footer.moderationDecisions")}
          </Link>
          <Link component={RouterLink} to="/provenance" color="text.secondary" variant="body2" data-testid="footer-provenance">
            {t("footer.provenance")}
          </Link>
          <Link component={RouterLink} to="/myData" color="text.secondary" variant="body2" data-testid="footer-mydata">
            {t("footer.myData")}
          </Link>
          <Link component="button" type="button" color="text.secondary" variant="body2" data-testid="footer-consent" onClick={() => consent.openSettings()}>
            {t("consent.settings")}
          </Link>
        </Box>
        {/* kept clear of the support bubble in the bottom-right corner */}
        <Typography variant="body2" color="text.secondary" sx={{ pr: { md: 7 } }}>
          {t("footer.adultsOnly")} · {t("footer.copyright", { year: new Date().getFullYear() })}
        </Typography>
      </Box>
    </Box>
  );
}
