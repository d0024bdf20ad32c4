import type { CreatorPage, CustomRequest } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, type CustomRequestStatus, type LibraryVisibility } from "../../contract/creators.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import type { ContentState } from "../../contract/moderation.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { ModeratedContent } from "../moderation/moderation.service.ts";
import type { LocalMediaSigner } from "../../storage/local.storage.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { createCreatorLibrary, type CreationMedia, type MediaPart } from "./creator-library.service.ts";
import { createCreatorMemberships } from "./creator-memberships.service.ts";
import type { PageFields } from "./creators.schema.ts";

interface Deps {
  db: Db;
  /** training owns character models: the page's home link, name and cover come from the creator's finished model */
  models: {
    publishable(userId: number, modelId: number): Promise<{ id: number; homeLink: string; name: string } | null>;
    coverFor(modelId: number): Promise<{ url: string; shareUrl: string } | null>;
  };
  /** generation owns creations: the files of the creator's finished ones, for the library */
  creations(userId: number, taskIds: number[]): Promise<Map<number, CreationMedia>>;
  /** public library media gets storage's signed URLs; members-only media URLs are signed with storage's signer */
  storage: Pick<MediaStorage, "signedUrl">;
  signer: LocalMediaSigner;
  mediaTtlSeconds: number;
  /** users owns roles: publishing the first page makes the account a creator (SPEC.md §6) */
  makeCreator(tx: Tx, userId: number): Promise<void>;
  /** the ledger: a request's price is held from the fan, then released to the creator or returned, each once */
  credits: Pick<CreditsService, "charge" | "refund" | "grant">;
  /** generation keeps a published creation from expiring, and releases it when it is taken off (decision 216) */
  keepCreation(tx: Tx, userId: number, taskId: number): Promise<boolean>;
  releaseCreation(tx: Tx, taskId: number): Promise<void>;
  /** generation owns creations: a delivery is one of the creator's own finished ones */
  isFinishedCreation(userId: number, taskId: number): Promise<boolean>;
  requestHours: number;
  minRatings: number;
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
 * creator_pages and subscriptions, and through its parts creator_memberships (creator-memberships.service.ts) and
 * creator_library_items (creator-library.service.ts).
 */
export function createCreatorsService({ db, models, creations, storage, signer, mediaTtlSeconds, makeCreator, credits, keepCreation, releaseCreation, isFinishedCreation, requestHours, minRatings }: Deps) {
  const memberships = createCreatorMemberships({ db, credits });
  const library = createCreatorLibrary({ db, storage, signer, ttlSeconds: mediaTtlSeconds, creations, isMember: (pageId, userId) => memberships.isMember(pageId, userId), keepCreation, releaseCreation });

  /** Satisfied share of rated deliveries; null until the page has `minRatings` ratings (one or two say little). */
  async function satisfaction(pageId: number): Promise<number | null> {
    const rated = await db.customRequest.groupBy({ by: ["satisfied"], where: { creatorPageId: pageId, status: "delivered", satisfied: { not: null } }, _count: true });
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
      library.forViewer(page, viewerId, viewerMembership.then((m) => isOwner || Boolean(m?.member))),
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

  function requestView(r: CustomRequest) {
    return { id: r.id, text: r.text, price: r.price, status: r.status as CustomRequestStatus, delivered_task_id: r.deliveredTaskId, satisfied: r.satisfied, dispute_status: r.disputeStatus, created_at: r.createdAt.toISOString(), expires_at: r.expiresAt.toISOString() };
  }

  /**
   * Moves a request from one of `from` to `to` (a conditional update: of two racing answers one wins) and settles its
   * money in the same transaction: declined or expired returns the hold to the fan, delivered releases it to the
   * creator. Keys per request make a repeat a no-op in the ledger too. False when the request was not in `from`.
   */
  async function settle(tx: Tx, id: number, from: CustomRequestStatus[], to: CustomRequestStatus, taskId?: number): Promise<boolean> {
    const moved = await tx.customRequest.updateMany({ where: { id, status: { in: from } }, data: { status: to, answeredAt: new Date(), ...(taskId ? { deliveredTaskId: taskId } : {}) } });
    if (!moved.count) return false;
    const r = await tx.customRequest.findUniqueOrThrow({ where: { id }, include: { creatorPage: { select: { userId: true } } } });
    const reference = `custom_request:${id}`;
    if (to === "declined" || to === "expired") await credits.refund({ userId: r.fanUserId, amount: r.price, reason: "custom_request_refund", idempotencyKey: `custom-request:${id}:return`, reference }, tx);
    if (to === "delivered") await credits.grant({ userId: r.creatorPage.userId, amount: r.price, reason: EARNING_REASON.release, idempotencyKey: `custom-request:${id}:release`, reference }, tx);
    return true;
  }

  /** A creator's answer to one of their page's requests. */
  async function answer(creatorId: number, id: number, from: CustomRequestStatus[], to: CustomRequestStatus, taskId?: number) {
    const r = await db.customRequest.findFirst({ where: { id, creatorPage: { userId: creatorId } }, select: { id: true } });
    if (!r) throw HttpError.notFound();
    if (!(await db.$transaction((tx) => settle(tx, id, from, to, taskId)))) throw HttpError.conflict(M.requestNotOpen);
    return requestView(await db.customRequest.findUniqueOrThrow({ where: { id } }));
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
          data: { userId, characterModelId: model.id, homeLink: model.homeLink, title: model.name, bio: fields.bio ?? "", socialLinks: fields.social_links ?? [], requestPrice: fields.request_price ?? null, membershipPrice: fields.membership_price ?? null },
        });
        await makeCreator(tx, userId);
      });
      return service.mine(userId);
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
      return service.mine(userId);
    },

    /**
     * A fan's paid custom request: the row and the hold of its price (a ledger charge keyed by the request) commit
     * together, so a short balance leaves nothing behind; the fan's idempotency key makes a double tap one request.
     */
    async request(fanId: number, homeLink: string, text: string, idempotencyKey: string) {
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      if (page.userId === fanId) throw HttpError.badRequest(M.ownPage);
      if (!page.requestPrice) throw HttpError.badRequest(M.noRequests);
      const price = page.requestPrice;
      const held = await db.$transaction(async (tx) => {
        const created = await tx.$queryRaw<{ id: number }[]>`
          INSERT INTO custom_requests (creator_page_id, fan_user_id, text, price, idempotency_key, expires_at)
          VALUES (${page.id}, ${fanId}, ${text}, ${price}, ${idempotencyKey}, ${new Date(Date.now() + requestHours * 3600_000)})
          ON CONFLICT (fan_user_id, idempotency_key) DO NOTHING RETURNING id`;
        if (!created[0]) return tx.customRequest.findUniqueOrThrow({ where: { fanUserId_idempotencyKey: { fanUserId: fanId, idempotencyKey } } });
        await credits.charge({ userId: fanId, amount: price, reason: "custom_request_hold", idempotencyKey: `custom-request:${created[0].id}:hold`, reference: `custom_request:${created[0].id}` }, tx);
        return tx.customRequest.findUniqueOrThrow({ where: { id: created[0].id } });
      });
      return requestView(held);
    },

    /** The fan's requests, or the creator's incoming ones, newest first. */
    async requests(userId: number, as: "fan" | "creator") {
      const where = as === "fan" ? { fanUserId: userId } : { creatorPage: { userId } };
      const rows = await db.customRequest.findMany({ where, orderBy: { id: "desc" }, take: 100, include: { creatorPage: { select: { homeLink: true, title: true } } } });
      return { list: rows.map((r) => ({ ...requestView(r), home_link: r.creatorPage.homeLink, creator: r.creatorPage.title })) };
    },

    accept: (creatorId: number, id: number) => answer(creatorId, id, ["pending"], "accepted"),
    decline: (creatorId: number, id: number) => answer(creatorId, id, ["pending", "accepted"], "declined"),

    /** Delivery of one of the creator's own finished creations releases the held price to the creator, once. */
    async deliver(creatorId: number, id: number, taskId: number) {
      if (!(await isFinishedCreation(creatorId, taskId))) throw HttpError.badRequest(M.deliveryNotYours);
      return answer(creatorId, id, ["accepted"], "delivered", taskId);
    },

    /** The fan rates a delivery once: satisfied or not (the page's satisfaction rate). */
    async rate(fanId: number, id: number, satisfied: boolean) {
      const rated = await db.customRequest.updateMany({ where: { id, fanUserId: fanId, status: "delivered", satisfied: null }, data: { satisfied, ratedAt: new Date() } });
      if (!rated.count) throw HttpError.conflict(M.requestNotOpen);
      return requestView(await db.customRequest.findUniqueOrThrow({ where: { id } }));
    },

    /**
     * Requests left unanswered past their time return to the fan. Each moves from open to expired in the transaction
     * that refunds it, conditionally, so a sweep running twice (or on two instances) refunds once.
     */
    async expireRequests(now = new Date()): Promise<number> {
      const due = await db.customRequest.findMany({ where: { status: { in: ["pending", "accepted"] }, expiresAt: { lte: now } }, select: { id: true }, take: 500 });
      let expired = 0;
      for (const { id } of due) {
        const moved = await db.$transaction((tx) => settle(tx, id, ["pending", "accepted"], "expired"));
        if (moved) expired++;
      }
      return expired;
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

    // ---- paid memberships and the library (decision 204) ----

    /** A fan joins a page's paid membership (the first period is charged at once); joining again is a no-op. */
    async joinMembership(fanId: number, homeLink: string) {
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      return memberships.join(fanId, page);
    },

    /** Stops the next renewal; access stays until the paid period ends. */
    async cancelMembership(fanId: number, homeLink: string) {
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      return memberships.cancel(fanId, page.id);
    },

    /** The sweep: due memberships renew from the fan's balance once per period, or end. */
    renewMemberships: (now?: Date) => memberships.renewDue(now),

    /**
     * One page of the library as this viewer sees it (the page itself answers the first): newest first, `total` items
     * in all, members-only ones locked unless the viewer is the creator or a member.
     */
    async library(homeLink: string, viewerId: number | null, q: { page: number; limit: number }) {
      const page = await pageByLink(db, homeLink);
      if (!page) throw HttpError.notFound(M.domainNotFound);
      const unlocked = page.userId === viewerId ? Promise.resolve(true) : memberships.of(page.id, viewerId).then((m) => Boolean(m?.member));
      const items = await library.forViewer(page, viewerId, unlocked, q);
      return { ...items, page: q.page, limit: q.limit };
    },

    /** How the caller's page shows each of these creations of theirs (those not on it are left out). */
    async myItems(userId: number, taskIds: number[]) {
      const page = await db.creatorPage.findUnique({ where: { userId } });
      if (!page) throw HttpError.notFound(M.noPage);
      return { list: await library.itemsOf(page, taskIds) };
    },

    /** The creator publishes one of their own finished creations to their page, public or members-only. */
    async publishItem(userId: number, taskId: number, visibility: LibraryVisibility) {
      const page = await db.creatorPage.findUnique({ where: { userId } });
      if (!page) throw HttpError.notFound(M.noPage);
      const item = await library.publish(page, taskId, visibility);
      return { id: item.id, task_id: item.taskId, visibility: item.visibility as LibraryVisibility };
    },

    async unpublishItem(userId: number, itemId: number) {
      const page = await db.creatorPage.findUnique({ where: { userId } });
      if (!page) throw HttpError.notFound(M.noPage);
      await library.unpublish(page, itemId);
      return { id: itemId };
    },

    /** A members-only file for the signed-in viewer it was signed for, checked on every request. */
    libraryMedia: (requesterId: number | null, q: { item: number; part: MediaPart; viewer: number; expires: number; sig: string }) => library.media(requesterId, q),
    /** The signed-in viewer's media pass, and the viewer a pass names (decision 217). */
    mediaPass: (viewerId: number) => library.pass(viewerId),
    passViewer: (value: string | undefined) => library.passViewer(value),

    /** Whether a creation is published on a page (moderation lets anyone report it). */
    isPublishedCreation: (taskId: number) => library.isPublished(taskId),

    /** Guest merge (auth): a guest's subscriptions become the account's; a page both follow keeps the account's row. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await memberships.moveToUser(tx, fromUserId, toUserId);
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
