/**
 * English namespaces that the landing page's first paint does not use, in groups the build serves as separate chunks
 * (`en.json?later-<group>`, split by the locale plugin in consumer/vite.config.ts). A lazily loaded screen or dialog
 * renders once its groups are there (`withLaterTranslations`, `lazyView`: all groups unless a route names its own).
 * Everything not listed ships with the first load, so a namespace missing here costs bytes, never a missing text.
 * Issue 18's first-load budget (docs/decisions/202); the creator page's own group, issue 16's (docs/decisions/214).
 */
export const LATER_GROUPS = {
  /** what a creator's public page (`/{homeLink}`) shows a fan who opened a shared link; its owner's panels load the rest */
  creatorPage: ["creators", "notFound"],
  screens: [
    "loginType",
    "flashSale",
    "studio",
    "modes",
    "templates",
    "photo",
    "cropper",
    "uploader",
    "progress",
    "status",
    "results",
    "buy",
    "pricing",
    "install",
    "noPermission",
    "googleCallback",
    "agreement",
    "share",
    "payments",
    "membership",
    "pixelTest",
    "engines",
    "newcomer",
    "training",
    "saveAccount",
    "notices",
    "privacy",
    "screening",
    "wallet",
    "chat",
    "account",
    "provenance",
    "rewards",
    "notifications",
    "messages",
  ],
} as const;

export type LaterGroup = keyof typeof LATER_GROUPS;
export const LATER_GROUP_NAMES = Object.keys(LATER_GROUPS) as LaterGroup[];

/** The keys of `all` that belong to the first paint (`"first"`) or to one later group. */
export function splitLocale<T extends Record<string, unknown>>(all: T, part: "first" | LaterGroup): Partial<T> {
  const groupOf = (ns: string) => LATER_GROUP_NAMES.find((g) => (LATER_GROUPS[g] as readonly string[]).includes(ns)) ?? "first";
  return Object.fromEntries(Object.entries(all).filter(([ns]) => groupOf(ns) === part)) as Partial<T>;
}
