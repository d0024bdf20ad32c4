import { useAgeConfirmed } from "../../dialogs/dialog-store.ts";
import { useConsent, useConsentSettingsOpen } from "./consent.ts";

/**
 * First-visit overlays come one at a time, in this order: age gate → consent banner → promotional popups.
 * The consent banner is not modal (z-index below MUI's modals), so a promotion opened over it would cover the
 * visitor's choice and push them to click it away first; promotions therefore wait until both questions are
 * answered, and step back while the footer has the banner open again.
 */
export function usePromotionsMayOpen(): boolean {
  const adult = useAgeConfirmed();
  const choice = useConsent();
  const reopened = useConsentSettingsOpen();
  return adult && choice !== null && !reopened;
}
