import type { CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M } from "../../contract/creators.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreatorLibrary } from "./creator-library.service.ts";
import type { CreatorMemberships } from "./creator-memberships.service.ts";
import { activePageByLink, subscribe } from "./creators.queries.ts";
import type { PageFields } from "./creators.schema.ts";

/** training owns character models: the page's home link, name and cover come from the creator's finished model */
export interface CharacterModels {
  publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null>;
  coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null>;
}

interface PageDeps {
  db: Db;
  models: CharacterModels;
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

/** A page that is up, or 'Domain not found'. */
export async function livePage(c: Tx | Db, homeLink: string): Promise<CreatorPage> {
  const page = await pageByLink(c, homeLink);
  if (!page) throw HttpError.notFound(M.domainNotFound);
  return page;
}

/** Subscribers are counted from their rows, so the figure shown is always the figure stored (ARCHITECTURE.md §8). */
const subscriberCount = (c: Tx | Db, pageId: number) => c.subscription.count({ where: { creatorPageId: pageId, active: true } });

/**
 * A page as one viewer sees it: its figures (subscribers, satisfaction), the viewer's subscription and membership, and
 * the first page of its library with members-only items locked unless the viewer is the creator or a member.
 */
function pageViewOf({ db, models, memberships, library, minRatings }: Omit<PageDeps, "makeCreator">) {
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
      page.characterModelId ? models.coverFor(page.characterModelId) : null,
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
  const { db, models } = deps;
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

    /**
     * SPEC.md §7 binding: subscribe (1) or unsubscribe (0), idempotent per fan and page. One row per pair (unique), so
     * concurrent clicks end in one subscription or none, and the count read back is the rows'.
     */
    async bind(userId: number, homeLink: string, subscribes: boolean) {
      const page = await livePage(db, homeLink);
      if (page.userId === userId) throw HttpError.badRequest(subscribes ? M.ownPage : M.unsubscribeFailed);
      const now = new Date();
      if (subscribes) await subscribe.rows(db, { pageId: page.id, userId, now });
      else await db.subscription.updateMany({ where: { creatorPageId: page.id, userId, active: true }, data: { active: false, cancelledAt: now } });
      return { subscribed: subscribes, subscriber_count: await subscriberCount(db, page.id) };
    },

    mine,

    /**
     * Publishes the caller's page for one of their finished character models: the model's home link (already checked
     * for length, characters, reserved words and case-insensitive uniqueness by training) becomes the page's. The
     * first page makes the account a creator, in the same transaction.
     */
    async publish(userId: number, modelId: number, fields: PageFields) {
      const model = await models.publishable(userId, modelId);
      if (!model) throw HttpError.badRequest(M.modelNotReady);
      await db.$transaction(async (tx) => {
        if (await tx.creatorPage.findUnique({ where: { userId }, select: { id: true } })) throw HttpError.conflict(M.hasPage);
        await tx.creatorPage.create({
          data: {
            userId,
            characterModelId: model.id,
            homeLink: model.homeLink,
            title: model.name,
            bio: fields.bio ?? "",
            socialLinks: fields.social_links ?? [],
            requestPrice: fields.request_price ?? null,
            membershipPrice: fields.membership_price ?? null,
          },
        });
        await makeCreator(tx, userId);
      });
      return mine(userId);
    },

    async update(userId: number, fields: PageFields) {
      const changed = await db.creatorPage.updateMany({
        where: { userId },
        data: {
          ...(fields.bio === undefined ? {} : { bio: fields.bio }),
          ...(fields.social_links === undefined ? {} : { socialLinks: fields.social_links }),
          ...(fields.request_price === undefined ? {} : { requestPrice: fields.request_price }),
          ...(fields.membership_price === undefined ? {} : { membershipPrice: fields.membership_price }),
        },
      });
      if (!changed.count) throw HttpError.notFound(M.noPage);
      return mine(userId);
    },

    /**
     * What a link pasted in a messenger previews (the server-rendered title, description and Open Graph image of
     * `/{homeLink}`); null for anything that is not a page that is up.
     */
    async shareCard(homeLink: string): Promise<{ title: string; description: string; image: string | null } | null> {
      const page = await pageByLink(db, homeLink);
      if (!page) return null;
      const cover = page.characterModelId ? await models.coverFor(page.characterModelId) : null;
      return { title: page.title, description: page.bio || page.title, image: cover?.shareUrl ?? null };
    },
  };
}
