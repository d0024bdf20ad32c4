/** Creator pages (issue 16). Import-free (docs/decisions/050). */

/** SPEC.md §8 wording; the consumer app translates by these exact strings. */
export const CREATOR_MESSAGES = {
  domainNotFound: "Domain not found",
  noDomainInformation: "No domain information",
  subscribeFailed: "Subscription failed",
  unsubscribeFailed: "Unsubscription failed",
  ownPage: "You cannot subscribe to your own page",
  modelNotReady: "Only a finished character model of yours can have a page",
  hasPage: "You already have a page",
  noPage: "You have no page yet",
  socialLink: "Social links must be https addresses of a known network",
  noRequests: "This creator takes no custom requests",
  requestNotOpen: "This request is no longer open",
  deliveryNotYours: "Deliver one of your own finished creations",
} as const;

/** A custom request's life (equals Prisma's CustomRequestStatus): pending → accepted → delivered, or declined / expired. */
export const CUSTOM_REQUEST_STATUSES = ["pending", "accepted", "delivered", "declined", "expired"] as const;
export type CustomRequestStatus = (typeof CUSTOM_REQUEST_STATUSES)[number];
export const CUSTOM_REQUEST_TEXT_MAX = 1000;
export const REQUEST_PRICE_MAX = 100_000;

/** Networks a page may link to: the host (or a subdomain of it) of each https address. */
export const SOCIAL_NETWORKS = [
  "instagram.com", "x.com", "twitter.com", "tiktok.com", "youtube.com", "t.me", "reddit.com", "onlyfans.com",
  "fansly.com", "patreon.com", "twitch.tv", "facebook.com", "bsky.app", "threads.net",
] as const;

export const CREATOR_BIO_MAX = 500;
export const SOCIAL_LINKS_MAX = 6;
/** Items of the page's library answered with the page. */
export const LIBRARY_PAGE_SIZE = 24;

/** The network a link belongs to, or null when it is not an https address of a known network. */
export function socialNetworkOf(url: string): (typeof SOCIAL_NETWORKS)[number] | null {
  let host: string;
  try {
    const u = new URL(url);
    if (u.protocol !== "https:" || u.username || u.password) return null;
    host = u.hostname.toLowerCase();
  } catch {
    return null;
  }
  return SOCIAL_NETWORKS.find((n) => host === n || host.endsWith(`.${n}`)) ?? null;
}
