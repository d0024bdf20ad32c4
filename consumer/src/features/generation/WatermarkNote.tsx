import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { dialogs } from "../../dialogs/dialog-store.ts";
import { currentBrand } from "../site/brand.ts";

/**
 * Where a person decides about the watermark on free output (issue 46 item 22, docs/decisions/296): the buy dialog says
 * what buying changes while the operator has the watermark on; a marked result says why it is marked, with the way to
 * buy. What counts as paid is the server's rule: charged in credits after a purchase.
 */
export function WatermarkNote({ where }: { where: "buy" | "result" }) {
  const { t } = useTranslation();
  if (where === "buy")
    return currentBrand().watermark ? (
      <Typography variant="body2" color="text.secondary" data-testid="buy-watermark" sx={{ mt: 1.5 }}>
        {t("buy.watermark")}
      </Typography>
    ) : null;
  // the way to buy under the words, not beside them: at 360 px a side button was squeezed to a letter a line
  return (
    <Alert severity="info" data-testid="result-watermarked" sx={{ mt: 1.5 }}>
      {t("progress.watermarked")}
      <Button size="small" onClick={() => dialogs.open("buyCredits")} data-testid="result-watermarked-buy" sx={{ display: "flex", mt: 0.5, px: 0 }}>
        {t("buy.title")}
      </Button>
    </Alert>
  );
}
