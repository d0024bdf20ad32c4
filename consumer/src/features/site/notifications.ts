import { createStore, useStore } from "../../lib/store.ts";

export type Severity = "success" | "info" | "warning" | "error";

export interface Notice {
  id: number;
  /** Already translated text. */
  text: string;
  severity: Severity;
}

const current = createStore<Notice | null>(null);
let seq = 0;

/** One snackbar for the whole app: API errors and short confirmations. */
export const notifications = {
  show: (text: string, severity: Severity = "error"): void => current.set({ id: ++seq, text, severity }),
  dismiss: (): void => current.set(null),
};

export function useNotice(): Notice | null {
  return useStore(current);
}
