import { storage } from "../../lib/storage.ts";
import { createStore, useStore } from "../../lib/store.ts";
import { session } from "../session/session.ts";
import { notifications } from "../site/notifications.ts";
import i18n from "../../i18n/index.ts";
import { capturePaypalOrder, queryPayment } from "./payments.api.ts";

/** SPEC.md §9 order verification: every 2 s, at most 50 tries; stored state kept 10 minutes, its count resumed within 5. */
export const POLL_INTERVAL_MS = 2_000;
export const MAX_TRIES = 50;
export const STATE_TTL_MS = 10 * 60_000;
export const RESUME_COUNT_WITHIN_MS = 5 * 60_000;

/** SPEC.md §4: these keep the browser polling; paid ends it well; any other status ends it as unsuccessful. */
const KEEP_POLLING = new Set(["pending", "3ds_pending"]);

export interface StoredVerification {
  orderId: number | string;
  provider: string;
  tries: number;
  savedAt: number;
}

export type Phase = "idle" | "verifying" | "paid" | "failed" | "timeout";

export interface VerificationState {
  phase: Phase;
  orderId: number | string | null;
  provider: string | null;
  status: string | null;
  tries: number;
}

const store = createStore<VerificationState>({ phase: "idle", orderId: null, provider: null, status: null, tries: 0 });
let run = 0;

function set(next: Partial<VerificationState>): void {
  store.set({ ...store.get(), ...next });
}

function save(): void {
  const state = store.get();
  if (state.orderId === null || state.provider === null) return;
  storage.setJson("payment_verification", {
    orderId: state.orderId,
    provider: state.provider,
    tries: state.tries,
    savedAt: Date.now(),
  } satisfies StoredVerification);
}

/**
 * The stored verification as it may be resumed now: gone after 10 minutes; between 5 and 10 minutes old it is
 * resumed with a fresh count (the old count is stale), under 5 minutes the count carries on.
 */
export function storedVerification(now = Date.now()): StoredVerification | null {
  const stored = storage.getJson<StoredVerification>("payment_verification");
  if (!stored || stored.orderId === undefined || typeof stored.savedAt !== "number") return null;
  const age = now - stored.savedAt;
  if (age < 0 || age > STATE_TTL_MS) {
    storage.remove("payment_verification");
    return null;
  }
  return age <= RESUME_COUNT_WITHIN_MS ? stored : { ...stored, tries: 0 };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function poll(id: number): Promise<void> {
  while (id === run && store.get().tries < MAX_TRIES) {
    let status: string | null = null;
    try {
      status = await queryPayment(store.get().orderId!);
    } catch {
      // a failed query counts as a try; the next one may get through
    }
    if (id !== run) return;
    const { tries, status: previous } = store.get();
    set({ tries: tries + 1, status: status ?? previous });
    if (status === "paid") {
      storage.remove("payment_verification");
      set({ phase: "paid" });
      const paidOrder = store.get().orderId!;
      // the purchase report is fetched only when an order is paid (not part of the first load)
      void import("../pixels/purchase.ts").then((m) => m.reportPurchase(paidOrder)).catch(() => undefined);
      await session.refreshBalance().catch(() => null);
      notifications.show(i18n.t("payment.paidNotice"), "success");
      return;
    }
    if (status !== null && !KEEP_POLLING.has(status)) {
      storage.remove("payment_verification");
      set({ phase: "failed" });
      return;
    }
    save();
    await sleep(POLL_INTERVAL_MS);
  }
  if (id === run && store.get().phase === "verifying") {
    storage.remove("payment_verification");
    set({ phase: "timeout" });
  }
}

export const verification = {
  get: (): VerificationState => store.get(),

  /** Remembered before the browser leaves for the provider, so the result page can pick it up. */
  remember(orderId: number | string, provider: string): void {
    storage.setJson("payment_verification", { orderId, provider, tries: 0, savedAt: Date.now() } satisfies StoredVerification);
  },

  /** Starts (or joins) polling an order. `paypalToken` is PayPal's order token from its return URL. */
  async start(orderId: number | string, provider: string, opts: { tries?: number; paypalToken?: string } = {}): Promise<void> {
    const current = store.get();
    if (current.phase === "verifying" && String(current.orderId) === String(orderId)) return;
    const id = ++run;
    set({ phase: "verifying", orderId, provider, status: null, tries: opts.tries ?? 0 });
    save();
    if (provider === "paypal" && opts.paypalToken) {
      await capturePaypalOrder(opts.paypalToken).catch(() => null);
    }
    await poll(id);
  },

  stop(): void {
    run++;
    set({ phase: "idle" });
  },
};

/** SPEC.md §4 "On start, order polling is resumed": a verification cut short by a reload or a closed tab carries on. */
export function resumePendingVerification(): void {
  const stored = storedVerification();
  if (stored && verification.get().phase === "idle") void verification.start(stored.orderId, stored.provider, { tries: stored.tries });
}

export function useVerification(): VerificationState {
  return useStore(store);
}
