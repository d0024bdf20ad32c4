/**
 * Rate limits count in windows aligned to the clock (server/src/http/rate-limit.ts): a test that makes N hits and
 * expects the N+1st refused would see it let through if the hits straddled a window's end. Called just before such a
 * run of hits: when less than `needMs` of the current `windowSeconds` window is left, waits for the next window (at
 * most `needMs`, and only in that last stretch of the window).
 */
export async function roomInWindow(windowSeconds: number, needMs = 10_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
