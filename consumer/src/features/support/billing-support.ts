import { dialogs } from "../../dialogs/dialog-store.ts";

/**
 * The one way into billing support from a refusal or a failed payment (issue 31 item 6): today the support bubble's
 * dialog (SPEC.md §2); retarget it here when billing support becomes an inbox, and every caller follows.
 */
export function openBillingSupport(): void {
  dialogs.open("support");
}
