import { useEffect, useState } from "react";
import { useOpenDialog } from "../../dialogs/dialog-store.ts";
import { storage } from "../../lib/storage.ts";
import { usePromotionsMayOpen } from "../consent/first-visit.ts";
import { getLimitedProducts, type Product } from "../payments/payments.api.ts";

const SHOW_AFTER_MS = 1_500;

export type RunningSale = Product & { flash_sale_ends_at: string; sale_starts_at: string };

/** A ban notice or a payment being confirmed is on screen, or will be at the next start: no promotion over them. */
const somethingWeightier = () => storage.get("ban_notice") !== null || storage.get("payment_verification") !== null;

/**
 * The running sale to pop up (issue 31 item 2): only once the age gate and the consent banner are answered (the popup is
 * a modal and would cover them), never over a ban notice, a payment being confirmed or an open dialog (the buy dialog
 * above all), and at most once per visitor per sale: `flash_sale_seen` keeps when this browser last showed one, and
 * only a sale that started after that is shown. Nothing when no sale runs.
 */
export function useFlashSale(): [RunningSale | null, () => void] {
  const [offer, setOffer] = useState<RunningSale | null>(null);
  const mayOpen = usePromotionsMayOpen();
  const dialogOpen = useOpenDialog() !== null;
  useEffect(() => {
    if (!mayOpen || somethingWeightier()) return;
    const lastShown = Number(storage.get("flash_sale_seen") ?? 0);
    let live = true;
    const timer = setTimeout(() => {
      getLimitedProducts()
        .then((list) => {
          const now = Date.now();
          const running = list.find(
            (p): p is RunningSale =>
              p.flash_sale_ends_at !== null &&
              p.sale_starts_at !== null &&
              new Date(p.flash_sale_ends_at).getTime() > now &&
              new Date(p.sale_starts_at).getTime() > lastShown,
          );
          if (!live || !running || somethingWeightier()) return;
          storage.set("flash_sale_seen", String(now));
          setOffer(running);
        })
        .catch(() => null);
    }, SHOW_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mayOpen]);
  const dismiss = () => setOffer(null);
  return [mayOpen && !dialogOpen ? offer : null, dismiss];
}
