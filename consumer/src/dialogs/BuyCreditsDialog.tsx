import { useEffect, useState } from "react";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import CloseIcon from "@mui/icons-material/Close";
import BoltIcon from "@mui/icons-material/Bolt";
import { useTranslation } from "react-i18next";
import { translateMessage } from "../i18n/index.ts";
import { ApiError } from "../lib/api-client.ts";
import { openSupport } from "../features/support/open-support.ts";
import {
  cheapestPerCredit,
  createOrderAndPay,
  formatPrice,
  getPaymentOptions,
  getProducts,
  priceThrough,
  type Product,
  visitorCurrency,
} from "../features/payments/payments.api.ts";
import type { PaymentOption } from "../features/payments/providers.ts";
import { trackPixel } from "../features/pixels/pixels.ts";
import { reportCheckout } from "../features/pixels/purchase.ts";
import { verification } from "../features/payments/verification.ts";
import { session, useSession } from "../features/session/session.ts";
import { accentGradient } from "../theme.ts";
import { ProductTerms } from "../features/payments/ProductTerms.tsx";
import { insideMiniApp } from "../features/channel/channel-login.ts";
import { WalletPay } from "../features/wallets/WalletPay.tsx";
import { WatermarkNote } from "../features/generation/WatermarkNote.tsx";
import { dialogs, useTappedProduct } from "./dialog-store.ts";

/** The server's 403 for a channel that needs a support-granted payment permission (SPEC.md §6 'not authorized to operate'). */
function isPermissionRefusal(e: unknown): boolean {
  return e instanceof ApiError && e.code === 403 && (e.data as { reason?: string } | null)?.reason === "payment_permission_required";
}

export const TERMS_MESSAGE = "Please agree to the terms first";

/** `stripe`, or `pagsmile-sbp` for a provider's own method. */
const optionKey = (o: PaymentOption) => (o.method === "checkout" ? o.provider : `${o.provider}-${o.method}`);

/**
 * SPEC.md §2 buy-credits dialog: packs and the plan with a best-value badge, a payment method, the terms box, then
 * off to pay. The product the person tapped (a flash sale, a card on /payment, the order they retry) is the one
 * chosen; only when they opened the dialog without choosing is the pack with the cheapest credit preselected.
 */
export default function BuyCreditsDialog() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const tapped = useTappedProduct();
  const [products, setProducts] = useState<Product[] | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [options, setOptions] = useState<PaymentOption[]>([]);
  const [option, setOption] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** the refusal was the channel's payment permission: say why and offer billing support */
  const [needsPermission, setNeedsPermission] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getProducts()
      .then((list) => {
        setProducts(list);
        // opened without a product tapped: the pack that gives a credit for least, never a plan, which renews (decision 380)
        const cheapest = cheapestPerCredit(list, visitorCurrency(), { packsOnly: true });
        setSelected((list.find((p) => p.product_id === tapped) ?? cheapest ?? list[0])?.product_id ?? null);
      })
      .catch((e: ApiError) => {
        setProducts([]);
        setError(translateMessage(e.message));
      });
    getPaymentOptions()
      // the channel wallet (TON Connect) is offered inside the messaging app's Mini App only (docs/decisions/210)
      .then((all) => all.filter((o) => o.provider !== "jpay" || insideMiniApp()))
      .then((list) => {
        setOptions(list);
        setOption((current) => current ?? (list[0] ? optionKey(list[0]) : null));
      })
      .catch(() => setOptions([]));
  }, [tapped]);

  const chosen = options.find((o) => optionKey(o) === option);
  // a product without a price in what the chosen way to pay charges in is not sold through it (docs/decisions/300)
  const selectedProduct = products?.find((p) => p.product_id === selected);
  const unpriced = selectedProduct !== undefined && !priceThrough(selectedProduct, chosen);

  async function pay() {
    setError(null);
    if (!agreed) return setError(translateMessage(TERMS_MESSAGE));
    if (selected === null || !chosen) return;
    setBusy(true);
    trackPixel("checkout_order");
    try {
      if (!session.get().token) await session.guestLogin();
      const order = await createOrderAndPay({ product_id: selected, provider: chosen.provider, method: chosen.method, agree_terms: true });
      verification.remember(order.order_id, chosen.method === "tpay" ? "tpay" : chosen.provider);
      await reportCheckout(order.order_id);
      window.location.assign(order.pay_url);
    } catch (e) {
      setError(translateMessage((e as Error).message));
      setNeedsPermission(isPermissionRefusal(e));
      setBusy(false);
    }
  }

  return (
    <Dialog
      open
      onClose={() => dialogs.close()}
      maxWidth="sm"
      fullWidth
      data-testid="buy-credits"
      slotProps={{ paper: { sx: { mx: { xs: 1.5, sm: 4 }, width: { xs: "calc(100% - 24px)", sm: "calc(100% - 64px)" } } } }}
    >
      <DialogTitle sx={{ pr: 6 }}>
        {t("buy.title")}
        {user && (
          <Typography variant="body2" color="text.secondary">
            {t("buy.current", { count: user.points })}
          </Typography>
        )}
        <IconButton onClick={() => dialogs.close()} aria-label={t("common.close")} sx={{ position: "absolute", right: 12, top: 12 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent sx={{ px: { xs: 2, sm: 3 } }}>
        {products === null ? (
          <Box sx={{ display: "grid", placeItems: "center", py: 6 }}>
            <CircularProgress />
          </Box>
        ) : (
          <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "repeat(3, 1fr)" }, gap: 1.5, mt: 1 }}>
            {products.map((p) => {
              const active = p.product_id === selected;
              const shown = priceThrough(p, chosen);
              return (
                <Box
                  key={p.product_id}
                  component="button"
                  type="button"
                  onClick={() => {
                    setSelected(p.product_id);
                    trackPixel("cart_add");
                  }}
                  data-testid={`product-${p.product_id}`}
                  aria-pressed={active}
                  data-price={shown?.price}
                  data-currency={shown?.currency}
                  sx={{
                    position: "relative",
                    minWidth: 0,
                    textAlign: "left",
                    cursor: "pointer",
                    p: 2,
                    pt: { xs: shown?.best_value ? 2.5 : 2, sm: 3 },
                    borderRadius: 3,
                    color: "text.primary",
                    font: "inherit",
                    bgcolor: active ? "rgba(167,139,250,0.12)" : "rgba(255,255,255,0.03)",
                    border: "1.5px solid",
                    borderColor: active ? "primary.main" : "divider",
                    transition: "border-color .15s, background-color .15s",
                    // phones: one row per product (name left, price right); wider screens: a grid of cards
                    display: "flex",
                    flexDirection: { xs: "row", sm: "column" },
                    alignItems: { xs: "center", sm: "flex-start" },
                    justifyContent: { xs: "space-between", sm: "flex-start" },
                    gap: { xs: 1, sm: 0 },
                  }}
                >
                  {/* best in the currency shown, the chosen way to pay's (decision 380) */}
                  {shown?.best_value && (
                    <Chip
                      size="small"
                      label={t("buy.bestValue")}
                      data-testid="best-value"
                      sx={{ position: "absolute", top: -10, left: 12, background: accentGradient, color: "#fff", height: 22 }}
                    />
                  )}
                  <Box sx={{ minWidth: 0 }}>
                    <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
                      <BoltIcon sx={{ color: "secondary.main", fontSize: 20 }} />
                      <Typography component="span" sx={{ fontWeight: 800, fontSize: 17 }}>
                        {p.kind === "subscription" ? t("pricing.subscription") : t("buy.credits", { count: p.credits })}
                      </Typography>
                    </Box>
                    <ProductTerms product={p} />
                  </Box>
                  <Box sx={{ textAlign: { xs: "right", sm: "left" }, flexShrink: 0 }}>
                    {shown ? (
                      <Typography variant="body1" sx={{ mt: { sm: 1 }, fontWeight: 700 }} data-testid="buy-price">
                        {formatPrice(shown.price, shown.currency, i18n.language)}
                      </Typography>
                    ) : (
                      <Typography variant="caption" color="text.secondary" data-testid="buy-not-sold" sx={{ display: "block", maxWidth: 120 }}>
                        {t("buy.notWithMethod")}
                      </Typography>
                    )}
                    {shown?.was_price ? (
                      <Typography variant="caption" color="text.secondary" sx={{ textDecoration: "line-through" }}>
                        {formatPrice(shown.was_price, shown.currency, i18n.language)}
                      </Typography>
                    ) : null}
                  </Box>
                </Box>
              );
            })}
          </Box>
        )}
        <WatermarkNote where="buy" />
        <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
          {t("buy.method")}
        </Typography>
        <ToggleButtonGroup exclusive value={option} onChange={(_e, v: string | null) => v && setOption(v)} size="small" sx={{ flexWrap: "wrap" }}>
          {options.map((o) => (
            <ToggleButton key={optionKey(o)} value={optionKey(o)} data-testid={`provider-${optionKey(o)}`} sx={{ px: 2 }}>
              {o.method === "checkout" ? t(`payments.provider.${o.provider}`) : t(`payments.method.${o.method}`)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <FormControlLabel
          sx={{ mt: 2, display: "flex" }}
          control={<Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)} data-testid="agree-terms" />}
          label={
            <Typography variant="body2">
              {t("buy.agreePrefix")} {/* A new tab, so reading the terms keeps this dialog and the chosen pack; the tap does not tick the box. */}
              <Link href="/agreement#terms" target="_blank" rel="noopener" onClick={(e) => e.stopPropagation()} data-testid="terms-link">
                {t("buy.agreeLink")}
              </Link>
            </Typography>
          }
        />
        {error && (
          <Alert
            severity="error"
            sx={{ mt: 1 }}
            data-testid="buy-error"
            action={
              needsPermission ? (
                <Button color="inherit" size="small" onClick={() => openSupport()} data-testid="buy-billing-support">
                  {t("buy.billingSupport")}
                </Button>
              ) : undefined
            }
          >
            {error}
            {needsPermission && <Box sx={{ mt: 0.5 }}>{t("buy.permissionWhy")}</Box>}
          </Alert>
        )}
        {option === "jpay" ? (
          <WalletPay productId={selected} agreed={agreed} onTermsMissing={(missing) => setError(missing ? translateMessage(TERMS_MESSAGE) : null)} />
        ) : (
          <Button
            fullWidth
            size="large"
            variant="contained"
            sx={{ mt: 2, mb: 1 }}
            disabled={busy || selected === null || option === null || unpriced}
            onClick={() => void pay()}
            data-testid="pay"
          >
            {busy ? <CircularProgress size={22} color="inherit" /> : t("buy.pay")}
          </Button>
        )}
      </DialogContent>
    </Dialog>
  );
}
