import { useEffect } from "react";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { FOOTER_SECTIONS } from "../features/site/Footer.tsx";
import { SUPPORT_EMAIL } from "../features/support/SupportBubble.tsx";

/** /agreement: the terms and the other footer documents, one section each (the footer links to their anchors). */
export function Component() {
  const { t } = useTranslation();
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: "smooth", block: "start" });
  }, [hash]);
  return (
    <Box sx={{ maxWidth: 860, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }}>
      <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
        {t("agreement.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 4 }}>
        {t("agreement.updated")}
      </Typography>
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2 }}>
        {FOOTER_SECTIONS.map((s) => (
          <Paper key={s} id={s} component="section" sx={{ p: { xs: 2.5, md: 3.5 }, borderRadius: 4, scrollMarginTop: 80, overflowWrap: "anywhere" }}>
            <Typography variant="h5" component="h2">
              {t(`footer.${s}`)}
            </Typography>
            {t(`agreement.${s}`)
              .split("\n\n")
              .map((para, i) => (
                <Typography key={i} color="text.secondary" sx={{ mt: 1.5, lineHeight: 1.7 }}>
                  {para}
                </Typography>
              ))}
            {s === "contact" && (
              <Link href={`mailto:${SUPPORT_EMAIL}`} sx={{ display: "inline-block", mt: 1.5 }}>
                {SUPPORT_EMAIL}
              </Link>
            )}
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
