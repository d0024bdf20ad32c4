import { useEffect, useState } from "react";
import { storage } from "../../lib/storage.ts";
import { usePromotionsMayOpen } from "../consent/first-visit.ts";
import { getLimitedProducts, type Product } from "../payments/payments.api.ts";

const SHOW_AFTER_MS = 1_500;
const ONCE_PER_MS = 12 * 3_600_000;

/**
 * The running flash sale to pop up: only once the age gate and the consent banner are answered (the popup is a
 * modal and would cover them), at most twice a day, never after it has ended.
 */
export function useFlashSale(): [(Product & { flash_sale_ends_at: string }) | null, () => void] {
  const [offer, setOffer] = useState<(Product & { flash_sale_ends_at: string }) | null>(null);
  const mayOpen = usePromotionsMayOpen();
  useEffect(() => {
    if (!mayOpen) return;
    const seen = Number(storage.get("flash_sale_seen") ?? 0);
    if (Date.now() - seen < ONCE_PER_MS) return;
    let live = true;
    const timer = setTimeout(() => {
      getLimitedProducts()
        .then((list) => {
          const running = list.find((p) => p.flash_sale_ends_at && new Date(p.flash_sale_ends_at).getTime() > Date.now());
          if (live && running) setOffer(running as Product & { flash_sale_ends_at: string });
        })
        .catch(() => null);
    }, SHOW_AFTER_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [mayOpen]);
  const dismiss = () => {
    storage.set("flash_sale_seen", String(Date.now()));
    setOffer(null);
  };
  return [mayOpen ? offer : null, dismiss];
}
