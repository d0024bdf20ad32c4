import { storage } from "../../lib/storage.ts";
import { session } from "../session/session.ts";

/** The parts of Telegram's Mini App SDK (telegram-web-app.js) used here, when the page was opened with it. */
interface TelegramWebApp {
  initData?: string;
  ready?: () => void;
}

/**
 * The signed launch data the messaging app opened us with: the SDK's `initData` when it is loaded, else Telegram's
 * `tgWebAppData` launch parameter in the URL fragment. Null outside a Mini App.
 */
export function launchInitData(): string | null {
  const sdk = (window as { Telegram?: { WebApp?: TelegramWebApp } }).Telegram?.WebApp;
  if (sdk?.initData) return sdk.initData;
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get("tgWebAppData");
  return fromHash || null;
}

let running: Promise<void> | null = null;
/** Set at start: the page was opened as a Mini App (the fragment with the launch data may be gone after navigation). */
let launchedInMiniApp = false;

/** True inside the messaging app's Mini App, where the channel wallet (JPay) is offered (docs/decisions/210). */
export function insideMiniApp(): boolean {
  return launchedInMiniApp;
}

/** Logs in through the channel with the pending launch data, once a token exists (SPEC.md §4). */
export function resumeChannelLogin(): Promise<void> {
  const pending = storage.get("channel_login_pending");
  if (!pending || !storage.get("token") || running) return running ?? Promise.resolve();
  // one attempt per launch: a refused (e.g. stale) launch data is not retried forever
  storage.remove("channel_login_pending");
  running = session
    .channelLogin(pending)
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => {
      running = null;
    });
  return running;
}

/**
 * After the Mini App's init: the launch data is kept as a pending flag, and used at once when a token exists;
 * otherwise the first login that gives the app a token (guest, email, Google) resumes it.
 */
export function startChannelLogin(): void {
  const initData = launchInitData();
  launchedInMiniApp = initData !== null;
  if (initData) {
    (window as { Telegram?: { WebApp?: TelegramWebApp } }).Telegram?.WebApp?.ready?.();
    storage.set("channel_login_pending", initData);
  }
  if (!storage.get("channel_login_pending")) return;
  session.subscribe(() => void resumeChannelLogin());
  void resumeChannelLogin();
}
