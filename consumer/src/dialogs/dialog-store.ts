import { createStore, useStore } from "../lib/store.ts";

/** Dialogs any screen can open: the bottom bar, the header and error paths all reach the same instances. */
export type DialogName = "login" | "buyCredits" | "install" | "support";

const openDialog = createStore<DialogName | null>(null);

export const dialogs = {
  open: (name: DialogName): void => openDialog.set(name),
  close: (): void => openDialog.set(null),
};

export function useOpenDialog(): DialogName | null {
  return useStore(openDialog);
}
