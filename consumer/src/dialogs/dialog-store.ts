import { useSyncExternalStore } from "react";

/** Dialogs any screen can open: the bottom bar, the header and error paths all reach the same instances. */
export type DialogName = "login" | "buyCredits" | "install" | "support";

let open: DialogName | null = null;
const listeners = new Set<() => void>();

export const dialogs = {
  open(name: DialogName): void {
    open = name;
    for (const l of listeners) l();
  },
  close(): void {
    open = null;
    for (const l of listeners) l();
  },
  current: (): DialogName | null => open,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useOpenDialog(): DialogName | null {
  return useSyncExternalStore(dialogs.subscribe, dialogs.current);
}
