import type { CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, type LibraryVisibility } from "../../contract/creators.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { LocalMediaSigner } from "../../storage/local.storage.ts";
import type { MediaStorage } from "../../storage/storage.ts";
import { createCreatorLibrary, type CreationMedia, type MediaPart } from "./creator-library.service.ts";
import { createCreatorMemberships } from "./creator-memberships.service.ts";
import { createCreatorTips, type TipDeps } from "./creator-tips.service.ts";
import { createCreatorBans } from "./creators.bans.ts";
import { createCreatorErasure } from "./creators.erase.ts";
import { createFollows } from "./creator-follows.service.ts";
import { moderatedPages } from "./creators.moderated.ts";
import type { PageCovers } from "./creators.page-edit.ts";
import { createPages, livePage, type CharacterModels } from "./creators.pages.ts";
import { dropSharedGuestSubscriptions } from "./creators.queries.ts";
import { createCustomRequests } from "./creators.requests.ts";

interface Deps {
  db: Db;
  models: CharacterModels;
  /** uploads owns images: a page made without a model has a cover of its own */
  covers: PageCovers;
  /** generation owns creations: the files of the creator's finished ones, for the library */
  creations(userId: number, taskIds: number[]): Promise<Map<number, CreationMedia>>;
  /** public library media gets storage's signed URLs; members-only media URLs are signed with storage's signer */
  storage: Pick<MediaStorage, "signedUrl">;
  signer: LocalMediaSigner;
  mediaTtlSeconds: number;
  /** users owns roles: publishing the first page makes the account a creator (SPEC.md §6) */
  makeCreator(tx: Tx, userId: number): Promise<void>;
  /** the ledger: a request's price is held from the fan, then released to the creator or returned, each once */
  credits: Pick<CreditsService, "charge" | "refund" | "grant" | "chargeUpTo">;
  /** generation keeps a published creation from expiring, and releases it when it is taken off (decision 216) */
  keepCreation(tx: Tx, userId: number, taskId: number): Promise<boolean>;
  releaseCreation(tx: Tx, taskId: number): Promise<void>;
  /** generation owns creations: one of the user's own (generation.own); a delivery must be a finished one */
  ownCreation(userId: number, taskId: number): Promise<{ status: string; state: string }>;
  requestHours: number;
  minRatings: number;
  /** what one account may have and add in an hour (docs/decisions/251) */
  limits: { requests: { open: number; perHour: number }; library: { items: number; perHour: number } };
  /** auth owns logins: whether a media pass's login still counts (auth.userSessionLive) */
  sessionLive(sessionId: number, userId: number): Promise<boolean>;
  /** a tip's message is checked as a chat message is; its presets and limits are staff's site setting */
  checkText: TipDeps["checkText"];
  tipSettings: TipDeps["tipSettings"];
  notify: TipDeps["notify"];
}

/**
 * Creator home-link pages (issue 16): the public page, subscribe and unsubscribe, and the creator's own page
 * (creators.pages.ts), paid custom requests (creators.requests.ts). Owns creator_pages, subscriptions and
 * custom_requests, and through its parts creator_memberships (creator-memberships.service.ts),
 * creator_library_items (creator-library.service.ts) and creator_tips (creator-tips.service.ts). Subscriptions are
 * follows (creator-follows.service.ts).
 */
export function createCreatorsService(deps: Deps) {
  const { db, models, makeCreator, credits, ownCreation, requestHours, minRatings, limits } = deps;
  const memberships = createCreatorMemberships({ db, credits });
  const isMember = (pageId: number, userId: number) => memberships.isMember(pageId, userId);
  const library = createCreatorLibrary({ ...deps, ttlSeconds: deps.mediaTtlSeconds, isMember, limits: limits.library });
  const pages = createPages({ db, models, covers: deps.covers, memberships, library, makeCreator, minRatings });
  const requests = createCustomRequests({ db, credits, ownCreation, requestHours, limits: limits.requests });
  const tips = createCreatorTips({ db, credits, checkText: deps.checkText, tipSettings: deps.tipSettings, notify: deps.notify });
  const follows = createFollows({ db, memberships, notify: deps.notify, storage: deps.storage, signer: deps.signer, ttlSeconds: deps.mediaTtlSeconds });

  /** The caller's own page, or 'no page'. */
  async function ownPage(userId: number): Promise<CreatorPage> {
    const page = await db.creatorPage.findUnique({ where: { userId } });
    if (!page) throw HttpError.notFound(M.noPage);
    return page;
  }

  return {
    ...pages,
    ...requests,
    // follows (docs/decisions/309): SPEC's subscribe, the caller's own list, and the "Following" feed
    bind: follows.bind,
    following: follows.following,
    feed: follows.feed,
    // tips (docs/decisions/304): sent by fans, listed to the fan and to the creator
    tip: tips.tip,
    tips: tips.tips,
    tipSettings: tips.settings,
    // paid memberships and the library (decision 204)
    /** A fan joins a page's paid membership (the first period is charged at once); joining again is a no-op. */
    joinMembership: async (fanId: number, homeLink: string) => memberships.join(fanId, await livePage(db, homeLink)),
    /** Stops the next renewal; access stays until the paid period ends. */
    cancelMembership: async (fanId: number, homeLink: string) => memberships.cancel(fanId, (await livePage(db, homeLink)).id),
    /** The sweep: due memberships renew from the fan's balance once per period, or end. */
    renewMemberships: (now?: Date) => memberships.renewDue(now),

    /**
     * One page of the library as this viewer sees it (the page itself answers the first): newest first, `total` items
     * in all, members-only ones locked unless the viewer is the creator or a member.
     */
    async library(homeLink: string, viewerId: number | null, q: { page: number; limit: number }) {
      const page = await livePage(db, homeLink);
      const unlocked = page.userId === viewerId ? Promise.resolve(true) : memberships.of(page.id, viewerId).then((m) => Boolean(m?.member));
      const items = await library.forViewer(page, viewerId, unlocked, q);
      return { ...items, page: q.page, limit: q.limit };
    },

    /** How the caller's page shows each of these creations of theirs (those not on it are left out). */
    myItems: async (userId: number, taskIds: number[]) => ({ list: await library.itemsOf(await ownPage(userId), taskIds) }),

    /** The creator publishes one of their own finished creations to their page, public or members-only. */
    async publishItem(userId: number, taskId: number, visibility: LibraryVisibility) {
      const item = await library.publish(await ownPage(userId), taskId, visibility);
      return { id: item.id, task_id: item.taskId, visibility: item.visibility as LibraryVisibility };
    },

    async unpublishItem(userId: number, itemId: number) {
      await library.unpublish(await ownPage(userId), itemId);
      return { id: itemId };
    },

    /** A members-only file for the signed-in viewer it was signed for, checked on every request. */
    libraryMedia: (requesterId: number | null, q: { item: number; part: MediaPart; viewer: number; expires: number; sig: string }) =>
      library.media(requesterId, q),
    /** The signed-in viewer's media pass, and the viewer a pass names (decision 217). */
    mediaPass: (viewerId: number, sessionId: number) => library.pass(viewerId, sessionId),
    passViewer: (value: string | undefined) => library.passViewer(value),

    /** Whether a creation is published on a page (moderation lets anyone report it). */
    isPublishedCreation: (taskId: number, c: Tx | Db) => library.isPublished(taskId, c),

    /** Guest merge (auth): a guest's subscriptions become the account's; a page both follow keeps the account's row. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await memberships.moveToUser(tx, fromUserId, toUserId);
      await dropSharedGuestSubscriptions.rows(tx, { fromUserId, toUserId });
      await tx.subscription.updateMany({ where: { userId: fromUserId }, data: { userId: toUserId } });
    },

    /** A ban's end of the account's memberships, its page's memberships (refunded) and held requests (returned). */
    accountBanned: createCreatorBans(credits),

    /** Account erasure (privacy, decision 262): dealings ended as by a ban, the page taken down for good. */
    eraseUser: createCreatorErasure(credits),

    /** How moderation finds and hides pages (reports, takedowns, restores). */
    moderated: moderatedPages,
  };
}

export type CreatorsService = ReturnType<typeof createCreatorsService>;
