import { useEffect, useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import { useTranslation } from "react-i18next";
import { formatPrice } from "../features/payments/payments.api.ts";
import { ProductTerms } from "../features/payments/ProductTerms.tsx";
import type { RunningSale } from "../features/site/useFlashSale.ts";
import { accentGradient } from "../theme.ts";
import { dialogs } from "./dialog-store.ts";

function remaining(endsAt: string): number {
  return Math.max(0, Math.floor((new Date(endsAt).getTime() - Date.now()) / 1000));
}

const UNITS = ["hour", "minute", "second"] as const;

/** "71 hr", "56 min", "49 sec" (ja 71時間, ko 71시간, ru 71 ч): each number with its unit in the reader's language. */
function countdownParts(total: number, language: string): string[] {
  const values = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  return UNITS.map((unit, i) => new Intl.NumberFormat(language, { style: "unit", unit, unitDisplay: "short" }).format(values[i]));
}

/** SPEC.md §2 flash-sale popup with a live countdown to the offer's real end time. */
export default function FlashSaleDialog({ product, onClose }: { product: RunningSale; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [left, setLeft] = useState(() => remaining(product.flash_sale_ends_at));
  useEffect(() => {
    const timer = setInterval(() => setLeft(remaining(product.flash_sale_ends_at)), 1000);
    return () => clearInterval(timer);
  }, [product.flash_sale_ends_at]);
  useEffect(() => {
    if (left === 0) onClose();
  }, [left, onClose]);

  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="xs"
      fullWidth
      data-testid="flash-sale"
      slotProps={{ paper: { sx: { mx: { xs: 1.5, sm: 4 }, width: { xs: "calc(100% - 24px)", sm: "calc(100% - 64px)" } } } }}
    >
      <Box sx={{ background: accentGradient, p: 3, pb: 4, textAlign: "center", color: "#fff", position: "relative" }}>
        <IconButton onClick={onClose} aria-label={t("common.close")} sx={{ position: "absolute", right: 8, top: 8, color: "#fff" }}>
          <CloseIcon />
        </IconButton>
        <Typography variant="overline" sx={{ letterSpacing: 3, fontWeight: 800 }}>
          {t("flashSale.badge")}
        </Typography>
        <Typography variant="h4" sx={{ fontWeight: 900, mt: 0.5, overflowWrap: "anywhere" }}>
          {t("flashSale.title", { count: product.credits })}
        </Typography>
        {/* the bonus is granted with the credits and counts toward the deal, so the popup says so (as the buy dialog does) */}
        <Box sx={{ "& .MuiTypography-root": { color: "#fff", fontWeight: 700 } }}>
          <ProductTerms product={product} />
        </Box>
        <Box sx={{ display: "flex", justifyContent: "center", alignItems: "baseline", flexWrap: "wrap", columnGap: 1.5, mt: 1.5 }}>
          <Typography variant="h3" sx={{ fontWeight: 900 }}>
            {formatPrice(product.price, product.currency, i18n.language)}
          </Typography>
          {product.was_price ? (
            <Typography sx={{ textDecoration: "line-through", opacity: 0.8 }}>{formatPrice(product.was_price, product.currency, i18n.language)}</Typography>
          ) : null}
        </Box>
      </Box>
      <DialogContent sx={{ textAlign: "center" }}>
        <Typography variant="body2" color="text.secondary">
          {t("flashSale.endsIn")}
        </Typography>
        <Box sx={{ display: "flex", justifyContent: "center", gap: 1, mt: 1 }} data-testid="flash-countdown">
          {countdownParts(left, i18n.language).map((part, i) => (
            <Box
              key={UNITS[i]}
              sx={{
                minWidth: 72,
                px: 1,
                py: 1,
                borderRadius: 2,
                bgcolor: "rgba(255,255,255,0.06)",
                fontSize: 22,
                fontWeight: 800,
                fontVariantNumeric: "tabular-nums",
              }}
            >
              {part}
            </Box>
          ))}
        </Box>
        <Button
          fullWidth
          variant="contained"
          size="large"
          sx={{ mt: 3 }}
          onClick={() => {
            onClose();
            dialogs.buy(product.product_id);
          }}
          data-testid="flash-cta"
        >
          {t("flashSale.cta")}
        </Button>
      </DialogContent>
    </Dialog>
  );
}
