import { dialogs } from "../../dialogs/dialog-store.ts";
import { createStore, useStore } from "../../lib/store.ts";

/** The order the support conversation was opened from; null when opened from the bubble itself. */
const aboutOrder = createStore<number | null>(null);

/**
 * Opens the billing-support conversation (SPEC.md §2 bubble), about this order when one is given: a refused payment,
 * an order or a receipt links straight into it with this one call. Small on purpose: importing it loads no panel code.
 */
export function openSupport(orderId?: number | null): void {
  aboutOrder.set(orderId ?? null);
  dialogs.open("support");
}

export function useSupportOrder(): number | null {
  return useStore(aboutOrder);
}
