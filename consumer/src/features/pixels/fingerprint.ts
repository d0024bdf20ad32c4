/** SPEC.md §9: a device fingerprint gets 5 s; past that the events go without one. */
export const FINGERPRINT_TIMEOUT_MS = 5_000;

/**
 * A stable, non-reversible id of this browser (SHA-256 of what it tells every site anyway), sent to ad vendors
 * as their `external_id` so a visitor's events match across pages. Never the IP, never anything stored elsewhere.
 */
async function compute(): Promise<string> {
  const n = navigator;
  const parts = [
    n.userAgent,
    n.language,
    (n.languages ?? []).join(","),
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    screen.width,
    screen.height,
    screen.colorDepth,
    n.hardwareConcurrency ?? 0,
  ];
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.join("|")));
  return [...new Uint8Array(digest)]
    .slice(0, 16)
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

export function deviceFingerprint(): Promise<string | null> {
  return Promise.race([compute().catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), FINGERPRINT_TIMEOUT_MS))]);
}
