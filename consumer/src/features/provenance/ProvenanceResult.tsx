import Alert from "@mui/material/Alert";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { ProvenanceAnswer } from "./provenance.api.ts";

/** Why the answer is what it is, in one line: our intact credentials, our fingerprint, or someone else's credentials. */
function reasonKey(a: ProvenanceAnswer): string {
  if (a.evidence === "credentials") return "provenance.byCredentials";
  if (a.evidence === "fingerprint") return "provenance.byFingerprint";
  if (a.credentials && !a.credentials.valid) return "provenance.broken";
  if (a.credentials) return "provenance.foreign";
  return "provenance.noHint";
}

/** The answer of a provenance check: yes or no, why, and when and by what it was made; never by whom. */
export function ProvenanceResult({ answer }: { answer: ProvenanceAnswer }) {
  const { t, i18n } = useTranslation();
  const when = answer.madeAt ? new Date(answer.madeAt).toLocaleString(i18n.language, { dateStyle: "long", timeStyle: "short" }) : null;
  return (
    <Alert
      severity={answer.madeWithReverie ? "info" : "success"}
      data-testid="provenance-answer"
      data-evidence={answer.evidence}
      sx={{ overflowWrap: "anywhere" }}
    >
      <Typography sx={{ fontWeight: 700 }}>{t(answer.madeWithReverie ? "provenance.yes" : "provenance.no")}</Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t(reasonKey(answer))}
      </Typography>
      {answer.credentials?.aiGenerated && <Typography variant="body2">{t("provenance.aiLabel")}</Typography>}
      {when && <Typography variant="body2">{t("provenance.madeAt", { when })}</Typography>}
      {answer.generator && <Typography variant="body2">{t("provenance.generator", { generator: answer.generator })}</Typography>}
    </Alert>
  );
}
