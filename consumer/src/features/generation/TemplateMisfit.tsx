import Alert from "@mui/material/Alert";
import { translateMessage } from "../../i18n/index.ts";
import type { Quote } from "./generation.api.ts";

/**
 * What the request still lacks for the workflow its template pins, or brings that it cannot take (decision 315), in
 * the words the submit would refuse it with: shown while Generate stays off, so nobody is sent to that refusal.
 */
export function TemplateMisfit({ quote }: { quote: Quote | null }) {
  if (!quote?.misfit) return null;
  return (
    <Alert severity="info" sx={{ borderRadius: 3 }} data-testid="template-misfit">
      {translateMessage(quote.misfit)}
    </Alert>
  );
}
