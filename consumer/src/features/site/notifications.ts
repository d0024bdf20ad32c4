import { useSyncExternalStore } from "react";

export type Severity = "success" | "info" | "warning" | "error";

export interface Notice {
  id: number;
  /** Already translated text. */
  text: string;
  severity: Severity;
}

let current: Notice | null = null;
let seq = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const l of listeners) l();
}

/** One snackbar for the whole app: API errors and short confirmations. */
export const notifications = {
  show(text: string, severity: Severity = "error"): void {
    current = { id: ++seq, text, severity };
    emit();
  },
  dismiss(): void {
    current = null;
    emit();
  },
  current: (): Notice | null => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useNotice(): Notice | null {
  return useSyncExternalStore(notifications.subscribe, notifications.current);
}
