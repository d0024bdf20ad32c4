import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import BoltIcon from "@mui/icons-material/Bolt";
import CheckIcon from "@mui/icons-material/Check";
import { useTranslation } from "react-i18next";
import { dialogs } from "../dialogs/dialog-store.ts";
import { formatPrice, getProducts, type Product } from "../features/payments/payments.api.ts";
import { PriceClaim } from "../features/payments/PriceClaim.tsx";
import { ProductTerms } from "../features/payments/ProductTerms.tsx";
import { useSession } from "../features/session/session.ts";
import { accentGradient } from "../theme.ts";

const PERKS = ["perkVideo", "perkHd", "perkNoExpiry", "perkSecure"] as const;

/** /payment: prices in full, with the same buy-credits dialog as everywhere else. */
export function Component() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    getProducts()
      .then(setProducts)
      .catch(() => setProducts([]));
  }, []);
  return (
    <Box sx={{ maxWidth: 1100, mx: "auto", px: { xs: 2, md: 3 }, py: { xs: 4, md: 6 } }}>
      <Box sx={{ textAlign: "center", mb: 5 }}>
        <Typography variant="h3" component="h1" sx={{ fontSize: { xs: 30, md: 44 } }}>
          {t("pricing.title")}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5 }}>
          {t("pricing.subtitle")}
        </Typography>
        <PriceClaim variant="body2" color="text.secondary" sx={{ mt: 0.5 }} />
        {user && <Chip icon={<BoltIcon />} label={t("credits.balance", { count: user.points })} sx={{ mt: 2 }} />}
      </Box>
      <Box sx={{ display: "grid", gridTemplateColumns: { xs: "minmax(0, 1fr)", sm: "repeat(2, minmax(0, 1fr))", md: "repeat(3, minmax(0, 1fr))" }, gap: 2 }}>
        {products.map((p) => (
          <Paper
            key={p.product_id}
            data-testid={`pricing-${p.product_id}`}
            data-price={p.price}
            sx={{
              p: 3.5,
              borderRadius: 5,
              position: "relative",
              border: p.best_value ? "1.5px solid" : undefined,
              borderColor: p.best_value ? "primary.main" : undefined,
            }}
          >
            {p.best_value && (
              <Chip size="small" label={t("buy.bestValue")} sx={{ position: "absolute", top: 16, right: 16, background: accentGradient, color: "#fff" }} />
            )}
            <Typography variant="h6">{p.kind === "subscription" ? t("pricing.subscription") : t("buy.credits", { count: p.credits })}</Typography>
            <ProductTerms product={p} />
            <Box sx={{ display: "flex", alignItems: "baseline", flexWrap: "wrap", columnGap: 1, mt: 1 }}>
              <Typography variant="h3" fontWeight={800} sx={{ fontSize: { xs: 36, sm: 48 } }}>
                {formatPrice(p.price, p.currency, i18n.language)}
              </Typography>
              {p.was_price ? (
                <Typography color="text.secondary" sx={{ textDecoration: "line-through" }}>
                  {formatPrice(p.was_price, p.currency, i18n.language)}
                </Typography>
              ) : null}
            </Box>
            <Box sx={{ display: "grid", gap: 1, my: 3 }}>
              {PERKS.map((perk) => (
                <Box key={perk} sx={{ display: "flex", gap: 1, alignItems: "center" }}>
                  <CheckIcon sx={{ fontSize: 18, color: "success.main" }} />
                  <Typography variant="body2" color="text.secondary">
                    {t(`pricing.${perk}`)}
                  </Typography>
                </Box>
              ))}
            </Box>
            <Button
              fullWidth
              variant={p.best_value ? "contained" : "outlined"}
              onClick={() => dialogs.buy(p.product_id)}
              data-testid={`pricing-buy-${p.product_id}`}
            >
              {t("buy.pay")}
            </Button>
          </Paper>
        ))}
      </Box>
    </Box>
  );
}
