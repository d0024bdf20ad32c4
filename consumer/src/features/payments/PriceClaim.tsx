import { useEffect, useState } from "react";
import Typography, { type TypographyProps } from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api-client.ts";
import { cheapestPerCredit, formatPrice, getProducts, visitorCurrency } from "./payments.api.ts";

/**
 * What a price claim is made of: the prices of what is on sale now (basicSettings' price ranges, templates included)
 * and the packs on sale. Each price is one number where all agree, else the span ("1–4"): a claim true of one template
 * only is no claim (issue 46 item 3).
 */
export interface PriceFacts {
  seconds: number;
  c480: string;
  c720: string;
  image: string;
  /** the lowest price of a credit now, packs and plans alike: the best-value product's (decision 380) */
  cheapest: { minor: number; currency: string } | null;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** "2" where every price is 2, "1–4" where they run from 1 to 4; null where the server named none. */
export function spanText(v: unknown): string | null {
  const span = v as { from?: unknown; to?: unknown } | null;
  const [from, to] = [num(span?.from), num(span?.to)];
  if (from === null || to === null) return null;
  return from === to ? String(from) : `${from}–${to}`;
}

const pending = new Map<string, Promise<PriceFacts | null>>();

/** Both answers once per page load and currency; null when either says nothing usable (the claim is then not made at all). */
function loadFacts(currency: string): Promise<PriceFacts | null> {
  const loading =
    pending.get(currency) ??
    Promise.all([api.get("/api/Index/basicSettings", { quiet: true }), getProducts()])
      .then(([settings, products]) => {
        const price = (settings.price ?? {}) as Record<string, unknown>;
        const ranges = (price.ranges ?? {}) as Record<string, unknown>;
        const seconds = num(price.per_block_seconds);
        const [c480, c720, image] = [ranges["480P"], ranges["720P"], ranges.image].map(spanText);
        if (seconds === null || c480 === null || c720 === null || image === null) return null;
        const best = cheapestPerCredit(products, currency);
        return { seconds, c480, c720, image, cheapest: best ? { minor: best.per_credit!, currency: best.currency } : null };
      })
      .catch(() => {
        pending.delete(currency);
        return null;
      });
  pending.set(currency, loading);
  return loading;
}

/**
 * Issue 31 item 1: the one sentence that says what output costs, made from the configured prices and the packs on sale
 * (never typed), naming the resolution and length it covers. Nothing is claimed until both are known; the space it
 * takes is held meanwhile so the page does not move.
 */
export function PriceClaim(props: TypographyProps) {
  const { t, i18n } = useTranslation();
  const [facts, setFacts] = useState<PriceFacts | null>(null);
  // read on each render: a change of language changes the currency claims are made in
  const currency = visitorCurrency();
  useEffect(() => {
    let live = true;
    void loadFacts(currency).then((f) => live && setFacts(f));
    return () => {
      live = false;
    };
  }, [currency]);
  const text =
    facts &&
    t(facts.cheapest ? "home.priceClaim" : "home.priceClaimNoPacks", {
      seconds: facts.seconds,
      c480: facts.c480,
      c720: facts.c720,
      image: facts.image,
      perCredit: facts.cheapest ? formatPrice(facts.cheapest.minor, facts.cheapest.currency, i18n.language) : "",
    });
  return (
    <Typography data-testid="price-claim" {...props} sx={{ minHeight: "1.5em", ...props.sx }}>
      {text}
    </Typography>
  );
}
