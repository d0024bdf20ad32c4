import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import type { LegalDocument, LegalField } from "../../../server/src/contract/legal.ts";
import { FOOTER_SECTIONS } from "../features/site/Footer.tsx";
import { openSupport } from "../features/support/open-support.ts";
import { api, type ApiData } from "../lib/api-client.ts";

type Legal = NonNullable<ApiData<"/api/legal/current", "get">>;

/** A document in the reader's language when staff wrote one, else in English; each `{{field}}` is its value or says it is missing. */
function useDocumentText(legal: Legal | null) {
  const { t, i18n } = useTranslation();
  return (doc: LegalDocument): string => {
    if (!legal) return "";
    const texts = legal.documents[doc] as Record<string, string | undefined>;
    const text = texts[i18n.language]?.trim() ? texts[i18n.language]! : texts.en!;
    return text.replace(/\{\{(\w+)\}\}/g, (_, f: LegalField) => legal.fields[f]?.trim() || t("agreement.missing", { field: t(`agreement.fields.${f}`) }));
  };
}

/** /agreement: the legal pages in force as staff wrote them (issue 35 item 2), one section each (the footer links to their anchors). */
export function Component() {
  const { t, i18n } = useTranslation();
  const { hash } = useLocation();
  const [legal, setLegal] = useState<Legal | null | undefined>(undefined);
  useEffect(() => {
    api.get("/api/legal/current").then(setLegal, () => setLegal(null));
  }, []);
  useEffect(() => {
    if (hash && legal !== undefined) document.getElementById(hash.slice(1))?.scrollIntoView({ behavior: "smooth", block: "start" });
  }, [hash, legal]);
  const textOf = useDocumentText(legal ?? null);
  return (
    <Box sx={{ maxWidth: 860, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }} data-testid="agreement" data-version={legal?.version ?? ""}>
      <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 40 } }}>
        {t("agreement.title")}
      </Typography>
      {legal && (
        <Typography color="text.secondary" sx={{ mt: 1 }} data-testid="agreement-version">
          {t("agreement.updated", { version: legal.version, date: new Date(legal.effective_at).toLocaleDateString(i18n.language, { dateStyle: "long" }) })}
        </Typography>
      )}
      {legal?.missing.length ? (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="agreement-draft">
          {t("agreement.draft", { fields: legal.missing.map((f) => t(`agreement.fields.${f}`)).join(", ") })}
        </Alert>
      ) : null}
      {legal === null && (
        <Alert severity="info" sx={{ mt: 2 }}>
          {t("agreement.unpublished")}
        </Alert>
      )}
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(0, 1fr)", gap: 2, mt: 4 }}>
        {FOOTER_SECTIONS.filter((s) => s === "about" || legal).map((s) => (
          <Paper key={s} id={s} component="section" sx={{ p: { xs: 2.5, md: 3.5 }, borderRadius: 4, scrollMarginTop: 80, overflowWrap: "anywhere" }}>
            <Typography variant="h5" component="h2">
              {t(`footer.${s}`)}
            </Typography>
            {(s === "about" ? t("agreement.about") : textOf(s)).split("\n\n").map((para, i) => (
              <Typography key={i} color="text.secondary" sx={{ mt: 1.5, lineHeight: 1.7, whiteSpace: "pre-line" }}>
                {para}
              </Typography>
            ))}
            {s === "contact" && (
              <Button variant="outlined" sx={{ mt: 1.5 }} onClick={() => openSupport()} data-testid="agreement-support">
                {t("support.open")}
              </Button>
            )}
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
