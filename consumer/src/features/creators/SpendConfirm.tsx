import { lazy, type ReactNode, Suspense, useState } from "react";
import type { Spend } from "./spend.ts";

/** The dialog itself is fetched when a spend is first asked: a creator's page is read far more often than paid on. */
const SpendConfirmDialog = lazy(() => import("./SpendConfirmDialog.tsx"));

/** `confirm(spend)` asks before a spend; `dialog` (null while none is asked) is to be rendered by the caller. */
export function useSpendConfirm(): { confirm: (spend: Spend) => void; dialog: ReactNode } {
  const [spend, setSpend] = useState<Spend | null>(null);
  const dialog = spend && (
    <Suspense fallback={null}>
      <SpendConfirmDialog spend={spend} onClose={() => setSpend(null)} />
    </Suspense>
  );
  return { confirm: setSpend, dialog };
}
