import { CONSENT_PURPOSES, type ConsentPurpose } from "../../../../server/src/contract/pixels.ts";
import { storage } from "../../lib/storage.ts";
import { createStore, useStore } from "../../lib/store.ts";

/** The visitor's answer, stored on the device. Bump VERSION when the purposes change, so everyone is asked again. */
export interface ConsentChoice {
  version: number;
  necessary: true;
  analytics: boolean;
  advertising: boolean;
  decidedAt: number;
}

const VERSION = 1;

function stored(): ConsentChoice | null {
  const c = storage.getJson<ConsentChoice>("consent");
  return c && c.version === VERSION && typeof c.analytics === "boolean" && typeof c.advertising === "boolean" ? c : null;
}

const choice = createStore<ConsentChoice | null>(stored());
/** The banner shown again from the footer, to change an earlier answer. */
const settingsOpen = createStore(false);

export const consent = {
  get: (): ConsentChoice | null => choice.get(),
  /** Nothing of a third party may load for a purpose before the visitor allowed it. */
  allows(purpose: ConsentPurpose): boolean {
    if (purpose === "necessary") return true;
    return choice.get()?.[purpose] === true;
  },
  decide(next: { analytics: boolean; advertising: boolean }): void {
    const value: ConsentChoice = { version: VERSION, necessary: true, analytics: next.analytics, advertising: next.advertising, decidedAt: Date.now() };
    storage.setJson("consent", value);
    settingsOpen.set(false);
    choice.set(value);
  },
  openSettings: (): void => settingsOpen.set(true),
  closeSettings: (): void => settingsOpen.set(false),
  subscribe: (listener: () => void): (() => void) => choice.subscribe(listener),
  /** What events carry: each purpose as 1/0, `null` while the visitor has not answered. */
  summary(): Record<ConsentPurpose, 0 | 1> | null {
    const c = choice.get();
    if (!c) return null;
    return Object.fromEntries(CONSENT_PURPOSES.map((p) => [p, p === "necessary" || c[p] ? 1 : 0])) as Record<ConsentPurpose, 0 | 1>;
  },
};

export function useConsent(): ConsentChoice | null {
  return useStore(choice);
}

export function useConsentSettingsOpen(): boolean {
  return useStore(settingsOpen);
}
