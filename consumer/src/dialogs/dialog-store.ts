import { storage } from "../lib/storage.ts";
import { createStore, useStore } from "../lib/store.ts";

/** Dialogs any screen can open: the bottom bar, the header and error paths all reach the same instances. */
export type DialogName = "login" | "buyCredits" | "install" | "support" | "logout";

const openDialog = createStore<DialogName | null>(null);
/** The product the person tapped before the buy dialog opened; null = they opened it without choosing one. */
const tappedProduct = createStore<number | null>(null);

export const dialogs = {
  open: (name: DialogName): void => {
    tappedProduct.set(null);
    openDialog.set(name);
  },
  /** The buy dialog with this product chosen: what the person tapped is what is ordered. */
  buy: (productId: number): void => {
    tappedProduct.set(productId);
    openDialog.set("buyCredits");
  },
  close: (): void => openDialog.set(null),
};

export function useOpenDialog(): DialogName | null {
  return useStore(openDialog);
}

/** The age gate's answer (SPEC.md §1), remembered on the device; the consent banner waits for it. */
const adult = createStore(storage.get("age_confirmed") === "1");

export const ageGate = {
  confirmed: (): boolean => adult.get(),
  confirm(): void {
    storage.set("age_confirmed", "1");
    adult.set(true);
  },
};

export function useAgeConfirmed(): boolean {
  return useStore(adult);
}

export function useTappedProduct(): number | null {
  return useStore(tappedProduct);
}
