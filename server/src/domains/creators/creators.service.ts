import type { CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, LIBRARY_PAGE_SIZE } from "../../contract/creators.ts";
import type { ContentState } from "../../contract/moderation.ts";
import { HttpError } from "../../http/errors.ts";
import type { ModeratedContent } from "../moderation/moderation.service.ts";
import type { PageFields } from "./creators.schema.ts";

interface Deps {
  db: Db;
  /** training owns character models: the page's home link, name and cover come from the creator's finished model */
  models: {
    publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null>;
    coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null>;
  };
  /** generation owns creations: the library is what the creator shares */
  library(userId: number, q: { page: number; limit: number }): Promise<{ list: unknown[]; total: number }>;
  /** users owns roles: publishing the first page makes the account a creator (SPEC.md §6) */
  makeCreator(tx: Tx, userId: number): Promise<void>;
}

/** A page as a link finds it: case-insensitive, and only while it is up (a takedown or suspension hides it). */
async function pageByLink(c: Tx | Db, homeLink: string): Promise<CreatorPage | null> {
  const rows = await c.$queryRaw<{ id: number }[]>`SELECT id FROM creator_pages WHERE lower(home_link) = lower(${homeLink}) AND state = 'active'`;
  return rows[0] ? c.creatorPage.findUnique({ where: { id: rows[0].id } }) : null;
}

/** Subscribers are counted from their rows, so the figure shown is always the figure stored (ARCHITECTURE.md §8). */
const subscriberCount = (c: Tx | Db, pageId: number) => c.subscription.count({ where: { creatorPageId: pageId, active: true } });

/**
 * Creator home-link pages (issue 16): the public page, subscribe and unsubscribe, and the creator's own page. Owns
 * creator_pages and subscriptions.
 */
export function createCreatorsService({ db, models, library, makeCreator }: Deps) {
  async function pageView(page: CreatorPage, viewerId: number | null) {
    const [subscribers, subscribed, cover, items] = await Promise.all([
      subscriberCount(db, page.id),
      viewerId === null ? false : db.subscription.count({ where: { creatorPageId: page.id, userId: viewerId, active: true } }).then((n) => n > 0),
      page.characterModelId ? models.coverFor(page.characterModelId) : null,
      library(page.userId, { page: 1, limit: LIBRARY_PAGE_SIZE }),
    ]);
    return {
      home_link: page.homeLink,
      title: page.title,
      bio: page.bio,
      social_links: page.socialLinks as string[],
      cover_url: cover?.url ?? null,
      subscriber_count: subscribers,
      subscribed,
      is_owner: viewerId === page.userId,
      library: items.list,
      library_total: items.total,
    };
  }

  const service = {
    /** SPEC.md §7 getHomeLinkInfo: '' → 'No domain information'; unknown, taken down or suspended → 'Domain not found'. */
    async homeLinkInfo(homeLink: string, viewerId: number | null) {
      if (!homeLink) throw HttpError.badRequest(M.noDomainInformation);
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      return pageView(page, viewerId);
    },

    /**
     * SPEC.md §7 binding: subscribe (1) or unsubscribe (0), idempotent per fan and page. One row per pair (unique), so
     * concurrent clicks end in one subscription or none, and the count read back is the rows'.
     */
    async bind(userId: number, homeLink: string, subscribe: boolean) {
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      if (page.userId === userId) throw HttpError.badRequest(subscribe ? M.ownPage : M.unsubscribeFailed);
      const now = new Date();
      if (subscribe) {
        await db.$executeRaw`INSERT INTO subscriptions (creator_page_id, user_id, active, created_at)
          VALUES (${page.id}, ${userId}, true, ${now})
          ON CONFLICT (creator_page_id, user_id) DO UPDATE SET active = true, cancelled_at = NULL WHERE subscriptions.active = false`;
      } else {
        await db.subscription.updateMany({ where: { creatorPageId: page.id, userId, active: true }, data: { active: false, cancelledAt: now } });
      }
      return { subscribed: subscribe, subscriber_count: await subscriberCount(db, page.id) };
    },

    /** The caller's own page (for "My page" and the bottom bar's HomeLink), or null. */
    async mine(userId: number) {
      const page = await db.creatorPage.findUnique({ where: { userId } });
      return page ? { ...(await pageView(page, userId)), state: page.state } : null;
    },

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
          data: { userId, characterModelId: model.id, homeLink: model.homeLink, title: model.name, bio: fields.bio ?? "", socialLinks: fields.social_links ?? [] },
        });
        await makeCreator(tx, userId);
      });
      return service.mine(userId);
    },

    async update(userId: number, fields: PageFields) {
      const changed = await db.creatorPage.updateMany({
        where: { userId },
        data: { ...(fields.bio === undefined ? {} : { bio: fields.bio }), ...(fields.social_links === undefined ? {} : { socialLinks: fields.social_links }) },
      });
      if (!changed.count) throw HttpError.notFound(M.noPage);
      return service.mine(userId);
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

    /** Guest merge (auth): a guest's subscriptions become the account's; a page both follow keeps the account's row. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await tx.$executeRaw`DELETE FROM subscriptions s USING subscriptions t
        WHERE s.user_id = ${fromUserId} AND t.user_id = ${toUserId} AND t.creator_page_id = s.creator_page_id`;
      await tx.subscription.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** How moderation finds and hides pages (reports, takedowns, restores). */
    moderated: {
      find: async (c: Tx | Db, id: number) => {
        const p = await c.creatorPage.findUnique({ where: { id }, select: { userId: true, state: true } });
        return p && { ...p, isPublic: p.state !== "removed" };
      },
      setState: async (c: Tx, id: number, state: ContentState, from?: ContentState) =>
        (await c.creatorPage.updateMany({ where: { id, ...(from ? { state: from } : {}) }, data: { state } })).count > 0,
    } satisfies ModeratedContent,
  };
  return service;
}

export type CreatorsService = ReturnType<typeof createCreatorsService>;
