/** Creator pages (issue 16). Import-free (docs/decisions/050). */

/** A page's display name (issue 30): as long as a model's name, which a page published from a model takes. */
export const CREATOR_TITLE_MAX = 40;

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
  noMembership: "This creator offers no membership",
  ownMembership: "You cannot join your own page",
  notMember: "You are not a member of this page",
  publishNotYours: "Publish one of your own finished creations",
  titleRequired: "Please input a display name",
  titleLength: `A display name can be at most ${CREATOR_TITLE_MAX} characters`,
} as const;

/**
 * Paid creator memberships (issue 16; not the provider-billed plan of the memberships domain). A fan pays the price
 * once per period from their credits; the sweep renews it when the period ends, or ends it when the balance is short.
 */
export const CREATOR_MEMBERSHIP_PERIOD_DAYS = 30;
export const MEMBERSHIP_PRICE_MAX = 100_000;
/** A membership's life (equals Prisma's CreatorMembershipStatus): active renews; cancelled runs to its period's end; ended. */
export const CREATOR_MEMBERSHIP_STATUSES = ["active", "cancelled", "ended"] as const;
export type CreatorMembershipStatus = (typeof CREATOR_MEMBERSHIP_STATUSES)[number];

/** Who sees a library item (equals Prisma's LibraryVisibility): everyone, or members only (and the creator). */
export const LIBRARY_VISIBILITIES = ["public", "members"] as const;
export type LibraryVisibility = (typeof LIBRARY_VISIBILITIES)[number];

/** Where a "Following" feed entry comes from (docs/decisions/309): a creation shared in the gallery, or a library item. */
export const FEED_SOURCES = ["gallery", "library"] as const;
export type FeedSource = (typeof FEED_SOURCES)[number];
/** Pages of the "Following" feed one may ask for: each followed page reads up to page × limit of its newest entries. */
export const FEED_MAX_PAGE = 50;

/** A custom request's life (equals Prisma's CustomRequestStatus): pending → accepted → delivered, or declined / expired. */
export const CUSTOM_REQUEST_STATUSES = ["pending", "accepted", "delivered", "declined", "expired"] as const;
export type CustomRequestStatus = (typeof CUSTOM_REQUEST_STATUSES)[number];
export const CUSTOM_REQUEST_TEXT_MAX = 1000;
export const REQUEST_PRICE_MAX = 100_000;

/** Networks a page may link to: the host (or a subdomain of it) of each https address. */
export const SOCIAL_NETWORKS = [
  "instagram.com",
  "x.com",
  "twitter.com",
  "tiktok.com",
  "youtube.com",
  "t.me",
  "reddit.com",
  "onlyfans.com",
  "fansly.com",
  "patreon.com",
  "twitch.tv",
  "facebook.com",
  "bsky.app",
  "threads.net",
] as const;

export const CREATOR_BIO_MAX = 500;
export const SOCIAL_LINKS_MAX = 6;
/** Items of the page's library answered with the page: SPEC.md §9's default page size; later pages come from `library`. */
export const LIBRARY_PAGE_SIZE = 20;

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
