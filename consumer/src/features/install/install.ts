/** Add to home screen (SPEC.md §2): the browser's install prompt where it exists, the steps and a message where it does not. */

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: BeforeInstallPromptEvent | null = null;

/** Keeps the browser's install prompt for our own button, and registers the service worker that makes the app installable. */
export function registerServiceWorker(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    // keep the prompt for our own button instead of the browser's mini-infobar
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
  });
  // browsers offer service workers on https and on localhost only
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // without a service worker the app still works; it just cannot be installed or open offline
    });
  };
  // after the load event, so the worker's own downloads never compete with the first page's
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** What the dialog can offer now: the browser's prompt ("ready"), nothing to do ("installed"), or the manual steps. */
export type InstallState = "ready" | "installed" | "unsupported";
export type InstallOutcome = "accepted" | "dismissed";

export function installState(): InstallState {
  if (window.matchMedia?.("(display-mode: standalone)").matches) return "installed";
  return deferred ? "ready" : "unsupported";
}

/** Shows the browser's install prompt; call it from a tap (browsers refuse a prompt without one). */
export async function promptInstall(): Promise<InstallOutcome> {
  const event = deferred;
  if (!event) return "dismissed";
  deferred = null;
  await event.prompt();
  return (await event.userChoice).outcome;
}
