import { lazy, type ReactNode, Suspense, useState } from "react";

/** A spend of credits on a creator, as the person confirms it (issue 46 item 14). */
export interface Spend {
  /** what the credits buy, one sentence in the person's language */
  what: string;
  /** credits taken (or held) from the balance now */
  amount: number;
  /** a membership: it renews from the balance every `days` days, next on `next` */
  renews?: { next: Date; days: number };
  /** a custom request: the credits are held, and come back if it is declined or not answered */
  held?: boolean;
  /** the spend itself */
  pay: () => Promise<void>;
  /** a short balance: the buy dialog opens, and this gets SPEC's words ("Please get points first") to show */
  onShort: (message: string) => void;
}

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
