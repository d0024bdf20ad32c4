import type { Db } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, type FeedSource, type LibraryVisibility } from "../../contract/creators.ts";
import { VIDEO_MODES } from "../../contract/generation.ts";
import { HttpError } from "../../http/errors.ts";
import { itemView, type UrlDeps } from "./creator-library.service.ts";
import type { CreatorMemberships } from "./creator-memberships.service.ts";
import { livePage, subscriberCount } from "./creators.pages.ts";
import { followingFeed, subscribe } from "./creators.queries.ts";
import type { RecordNotification } from "../notifications/notifications.service.ts";

interface FollowDeps extends UrlDeps {
  db: Db;
  memberships: Pick<CreatorMemberships, "memberOf">;
  /** the bell: the page's owner hears of a new follower, in the follow's transaction (docs/decisions/312) */
  notify: RecordNotification;
}

const isVideoMode = (mode: string) => (VIDEO_MODES as readonly string[]).includes(mode);

/**
 * Following creators (issue 32 item 3, docs/decisions/309). A follow is the page's subscription row (SPEC.md's free
 * "subscribe"), one per account and page. Whom an account follows is that account's alone to read; a creator sees
 * the count. The feed shows what the followed pages show: members-only items locked, without any URL, unless the
 * viewer is a member now.
 */
export function createFollows({ db, memberships, notify, ...urls }: FollowDeps) {
  /**
   * The one place a follow starts: true only when this call made the follow (a new row, or a cancelled one resumed);
   * a repeated or concurrent follow of the same account answers false. What reacts to a new follower hooks in here.
   */
  async function startFollow(userId: number, page: { id: number; userId: number }): Promise<boolean> {
    return db.$transaction(async (tx) => {
      const started = (await subscribe.rows(tx, { pageId: page.id, userId, now: new Date() })).length > 0;
      if (started) await notify(tx, { userId: page.userId, kind: "follow", actorId: userId });
      return started;
    });
  }

  return {
    /**
     * SPEC.md §7 binding: follow (1) or unfollow (0), idempotent per account and page. One row per pair (unique), so
     * concurrent clicks end in one follow or none, and the count read back is the rows'.
     */
    async bind(userId: number, homeLink: string, subscribes: boolean) {
      const page = await livePage(db, homeLink);
      if (page.userId === userId) throw HttpError.badRequest(subscribes ? M.ownPage : M.unsubscribeFailed);
      if (subscribes) await startFollow(userId, page);
      else await db.subscription.updateMany({ where: { creatorPageId: page.id, userId, active: true }, data: { active: false, cancelledAt: new Date() } });
      return { subscribed: subscribes, subscriber_count: await subscriberCount(db, page.id) };
    },

    /** The pages the caller follows that are up, most recently followed first; nobody else's list can be asked for. */
    async following(userId: number, q: { page: number; limit: number }) {
      const where = { userId, active: true, creatorPage: { state: "active" as const, user: { bannedAt: null } } };
      const [rows, total] = await Promise.all([
        db.subscription.findMany({
          where,
          orderBy: { id: "desc" },
          skip: (q.page - 1) * q.limit,
          take: q.limit,
          select: { createdAt: true, creatorPage: { select: { homeLink: true, title: true } } },
        }),
        db.subscription.count({ where }),
      ]);
      const list = rows.map((r) => ({ home_link: r.creatorPage.homeLink, title: r.creatorPage.title, since: r.createdAt.toISOString() }));
      return { list, total, page: q.page, limit: q.limit };
    },

    /**
     * One page of the caller's feed: one statement for the entries, one read of the caller's memberships among the
     * pages with members-only entries, then the URLs signed as the creator's page signs them.
     */
    async feed(viewerId: number, q: { page: number; limit: number }) {
      const rows = await followingFeed.rows(db, { userId: viewerId, limit: q.limit, offset: (q.page - 1) * q.limit });
      const open = await memberships.memberOf(viewerId, [...new Set(rows.filter((r) => r.visibility === "members").map((r) => r.page_id))]);
      const list = await Promise.all(
        rows.map(async (r) => {
          const media = { kind: isVideoMode(r.mode) ? ("video" as const) : ("image" as const), key: r.output_key, posterKey: r.poster_key };
          const item = { id: r.id, taskId: r.task_id, visibility: r.visibility as LibraryVisibility, createdAt: r.created_at };
          const view = await itemView(urls, item, media, viewerId, open.has(r.page_id));
          return { ...view, source: r.source as FeedSource, creator: { home_link: r.home_link, title: r.title } };
        }),
      );
      return { list, page: q.page, limit: q.limit };
    },
  };
}
