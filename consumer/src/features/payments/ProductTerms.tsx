import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import type { Product } from "./payments.api.ts";

/**
 * What a product gives beyond its headline credits, and how a plan bills. A bonus is granted with the credits of any
 * product (orders.checkout) and counts toward "best value" (docs/decisions/265), so the buyer is told of it. A card or
 * PayPal subscription (Stripe, Pagsmile recurring, PayPal) renews each period until it is cancelled (docs/decisions/115,
 * 209); the other methods pay for one period.
 */
export function ProductTerms({ product }: { product: Product }) {
  const { t } = useTranslation();
  const bonus =
    product.bonus_credits > 0 ? (
      <Typography variant="body2" color="secondary.main" data-testid="product-bonus">
        {t("buy.bonus", { count: product.bonus_credits })}
      </Typography>
    ) : null;
  if (product.kind !== "subscription") return bonus && <Box sx={{ mt: 0.5 }}>{bonus}</Box>;
  return (
    <Box data-testid="plan-terms" sx={{ mt: 0.5 }}>
      <Typography variant="body2" data-testid="plan-credits">
        {product.interval_days
          ? t("newcomer.plan.creditsFor", { count: product.credits, days: product.interval_days })
          : t("buy.credits", { count: product.credits })}
      </Typography>
      {bonus}
      <Typography variant="caption" color="text.secondary" data-testid="plan-billing" sx={{ display: "block", lineHeight: 1.4 }}>
        {t("newcomer.plan.billing")}
      </Typography>
    </Box>
  );
}
