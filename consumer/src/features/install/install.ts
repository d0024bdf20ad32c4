/** Add to home screen (SPEC.md §2): the browser's install prompt where it exists, a message where it does not. */

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: BeforeInstallPromptEvent | null = null;

export function registerServiceWorker(): void {
  window.addEventListener("beforeinstallprompt", (event) => {
    // keep the prompt for our own button instead of the browser's mini-infobar
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
  });
  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js").catch(() => {
        // without a service worker the app still works; it just cannot be installed
      });
    });
  }
}

export type InstallOutcome = "accepted" | "dismissed" | "unsupported" | "installed";

export function isInstalled(): boolean {
  return window.matchMedia?.("(display-mode: standalone)").matches ?? false;
}

export async function promptInstall(): Promise<InstallOutcome> {
  if (isInstalled()) return "installed";
  if (!deferred) return "unsupported";
  const event = deferred;
  deferred = null;
  await event.prompt();
  return (await event.userChoice).outcome;
}
