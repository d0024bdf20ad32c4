import type { Language } from "../../../../server/src/contract/locales.ts";

/**
 * The language a sign-in leaves the app showing (`show`) and the account keeping (`save`, null when it already does;
 * issue 30 item 2). An account used before brings its saved language (`account`, null when the app does not speak it)
 * to this device; a new account or a guest keeps the language shown here, which is the one the person chose or, never
 * having chosen, the operator's default (docs/decisions/289), not necessarily the one stored on this device.
 */
export function signInLanguage(account: Language | null, returning: boolean, shown: Language): { show: Language; save: Language | null } {
  if (returning && account) return { show: account, save: null };
  return { show: shown, save: account === shown ? null : shown };
}
