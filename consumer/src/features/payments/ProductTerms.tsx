import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { Product } from "./payments.api.ts";

/**
 * What a plan gives and how it bills: a card or PayPal subscription (Stripe, Pagsmile recurring, PayPal) renews each
 * period until it is cancelled (docs/decisions/115, 209); the other methods pay for one period. Packs need nothing beyond their credits.
 */
export function ProductTerms({ product }: { product: Product }) {
  const { t } = useTranslation();
  if (product.kind !== "subscription") return null;
  return (
    <Box data-testid="plan-terms" sx={{ mt: 0.5 }}>
      <Typography variant="body2" data-testid="plan-credits">
        {product.interval_days
          ? t("newcomer.plan.creditsFor", { count: product.credits, days: product.interval_days })
          : t("buy.credits", { count: product.credits })}
      </Typography>
      <Typography variant="caption" color="text.secondary" data-testid="plan-billing" sx={{ display: "block", lineHeight: 1.4 }}>
        {t("newcomer.plan.billing")}
      </Typography>
    </Box>
  );
}
