import type { CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { displayNickname } from "../../contract/users.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreatorLibrary } from "./creator-library.service.ts";
import type { CreatorMemberships } from "./creator-memberships.service.ts";
import { activePageByLink } from "./creators.queries.ts";
import { createPageEdits, type CharacterModels, type PageCovers } from "./creators.page-edit.ts";

export type { CharacterModels };

export interface PageDeps {
  db: Db;
  models: CharacterModels;
  covers: PageCovers;
  memberships: Pick<CreatorMemberships, "of">;
  library: Pick<CreatorLibrary, "forViewer">;
  /** users owns roles: publishing the first page makes the account a creator (SPEC.md §6) */
  makeCreator(tx: Tx, userId: number): Promise<void>;
  minRatings: number;
}

/** A page as a link finds it: case-insensitive, and only while it is up (a takedown or suspension hides it). */
export async function pageByLink(c: Tx | Db, homeLink: string): Promise<CreatorPage | null> {
  const found = await activePageByLink.first(c, { homeLink });
  return found ? c.creatorPage.findUnique({ where: { id: found.id } }) : null;
}

/** Whether a page is up: active, and its owner not banned (what activePageByLink asks in SQL). */
export const pageIsUp = (page: { state: string }, owner: { bannedAt: Date | null }) => page.state === "active" && owner.bannedAt === null;

/** What `publicName` reads of an account (a Prisma `select` on users). */
export const publicNameFields = { nickname: true, uuid: true, bannedAt: true, creatorPage: { select: { title: true, state: true } } } as const;
type Named = { nickname: string | null; uuid: string; bannedAt: Date | null; creatorPage: { title: string; state: string } | null };

/**
 * How an account is named to other people (issue 46 item 15): a creator by their page's title while the page is up
 * ("Alice Creates", as the page itself shows), anyone else by their display name (SPEC's Guest_ form when unnamed).
 */
export function publicName(u: Named): string {
  return u.creatorPage && pageIsUp(u.creatorPage, u) ? u.creatorPage.title : displayNickname(u.nickname, u.uuid);
}

/** A page that is up, or 'Domain not found'. */
export async function livePage(c: Tx | Db, homeLink: string): Promise<CreatorPage> {
  const page = await pageByLink(c, homeLink);
  if (!page) throw HttpError.notFound(M.domainNotFound);
  return page;
}

/**
 * Subscribers (followers) are counted from their rows, so the figure shown is always the figure stored (ARCHITECTURE.md
 * §8); a banned follower stops counting the moment the ban is written, and counts again if it is lifted (decision 309).
 */
export const subscriberCount = (c: Tx | Db, pageId: number) =>
  c.subscription.count({ where: { creatorPageId: pageId, active: true, user: { bannedAt: null } } });

/** The page's own cover when it has one that is still up, else its model's (a page made from a model), else none. */
async function coverOf({ covers, models }: Pick<PageDeps, "covers" | "models">, page: CreatorPage) {
  const own = page.coverUploadId ? await covers.pictureOf(page.coverUploadId) : null;
  return own ?? (page.characterModelId ? models.coverFor(page.characterModelId) : null);
}

/**
 * A page as one viewer sees it: its figures (subscribers, satisfaction), the viewer's subscription and membership, and
 * the first page of its library with members-only items locked unless the viewer is the creator or a member.
 */
function pageViewOf({ db, memberships, library, minRatings, ...deps }: Omit<PageDeps, "makeCreator">) {
  /** Satisfied share of rated deliveries; null until the page has `minRatings` ratings (one or two say little). */
  async function satisfaction(pageId: number): Promise<number | null> {
    const rated = await db.customRequest.groupBy({
      by: ["satisfied"],
      where: { creatorPageId: pageId, status: "delivered", satisfied: { not: null } },
      _count: true,
    });
    const total = rated.reduce((n, r) => n + r._count, 0);
    if (total < minRatings) return null;
    return Math.round(((rated.find((r) => r.satisfied)?._count ?? 0) / total) * 100);
  }

  async function pageView(page: CreatorPage, viewerId: number | null) {
    const isOwner = viewerId === page.userId;
    const viewerMembership = memberships.of(page.id, viewerId);
    const [subscribers, subscribed, cover, membership, items, satisfied] = await Promise.all([
      subscriberCount(db, page.id),
      viewerId === null ? false : db.subscription.count({ where: { creatorPageId: page.id, userId: viewerId, active: true } }).then((n) => n > 0),
      coverOf(deps, page),
      viewerMembership,
      library.forViewer(
        page,
        viewerId,
        viewerMembership.then((m) => isOwner || Boolean(m?.member)),
      ),
      satisfaction(page.id),
    ]);
    return {
      /** the report flow's `creator_page` target */
      id: page.id,
      home_link: page.homeLink,
      title: page.title,
      bio: page.bio,
      social_links: page.socialLinks as string[],
      cover_url: cover?.url ?? null,
      subscriber_count: subscribers,
      subscribed,
      is_owner: isOwner,
      // what the owner's edit screen starts from; nobody else learns which model or upload the page uses
      role_id: isOwner ? page.characterModelId : null,
      cover_id: isOwner ? page.coverUploadId : null,
      library: items.list,
      library_total: items.total,
      /** members-only items this viewer cannot open (shown as locked tiles) */
      library_locked: items.locked,
      request_price: page.requestPrice,
      membership_price: page.membershipPrice,
      membership,
      satisfaction_rate: satisfied,
    };
  }

  return pageView;
}

/** The pages themselves: as fans see them, subscriptions, and the creator's own page. */
export function createPages({ makeCreator, ...deps }: PageDeps) {
  const { db } = deps;
  const pageView = pageViewOf(deps);

  /** The caller's own page (for "My page" and the bottom bar's HomeLink), or null. */
  async function mine(userId: number) {
    const page = await db.creatorPage.findUnique({ where: { userId } });
    return page ? { ...(await pageView(page, userId)), state: page.state } : null;
  }

  return {
    /** SPEC.md §7 getHomeLinkInfo: '' → 'No domain information'; unknown, taken down or suspended → 'Domain not found'. */
    async homeLinkInfo(homeLink: string, viewerId: number | null) {
      if (!homeLink) throw HttpError.badRequest(M.noDomainInformation);
      return pageView(await livePage(db, homeLink), viewerId);
    },

    mine,
    ...createPageEdits({ ...deps, makeCreator, mine }),

    /**
     * What a link pasted in a messenger previews (the server-rendered title, description and Open Graph image of
     * `/{homeLink}`); null for anything that is not a page that is up.
     */
    async shareCard(homeLink: string): Promise<{ title: string; description: string; image: string | null } | null> {
      const page = await pageByLink(db, homeLink);
      if (!page) return null;
      const cover = await coverOf(deps, page);
      return { title: page.title, description: page.bio || page.title, image: cover?.shareUrl ?? null };
    },
  };
}
