/**
 * English namespaces that the landing page's first paint does not use: the build serves them as a separate chunk
 * (`en.json?later`, split by the locale plugin in consumer/vite.config.ts), fetched after the page has loaded and
 * before any lazily loaded screen or dialog renders (`withLaterTranslations`). Everything not listed ships with the
 * first load, so a namespace missing here costs bytes, never a missing text. Issue 18's first-load budget.
 */
export const LATER_NAMESPACES = [
  "loginType", "flashSale", "studio", "modes", "templates", "photo", "cropper", "uploader", "progress",
  "status", "results", "buy", "pricing", "install", "notFound", "noPermission", "googleCallback",
  "agreement", "share", "payments", "membership", "pixelTest", "engines", "newcomer", "training", "notices",
  "screening", "creators", "wallet",
] as const;

/** The keys of `all` that belong to the first paint (`later: false`) or to the later chunk (`later: true`). */
export function splitLocale<T extends Record<string, unknown>>(all: T, later: boolean): Partial<T> {
  const inLater = (ns: string) => (LATER_NAMESPACES as readonly string[]).includes(ns);
  return Object.fromEntries(Object.entries(all).filter(([ns]) => inLater(ns) === later)) as Partial<T>;
}
