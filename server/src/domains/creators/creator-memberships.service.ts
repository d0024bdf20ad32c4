import type { CreatorMembership, CreatorPage } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MEMBERSHIP_PERIOD_DAYS, CREATOR_MESSAGES as M, type CreatorMembershipStatus } from "../../contract/creators.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { holdLivePage } from "./creators.page-hold.ts";
import * as q from "./creators.queries.ts";

export const PERIOD_MS = CREATOR_MEMBERSHIP_PERIOD_DAYS * 24 * 3600_000;

interface Deps {
  db: Db;
  /** the ledger: each period is charged from the fan and granted to the creator, once per membership and period */
  credits: Pick<CreditsService, "charge" | "grant">;
}

/** What a fan (or the page) sees of a membership. */
export function membershipView(m: CreatorMembership, now = new Date()) {
  return {
    status: m.status as CreatorMembershipStatus,
    price: m.price,
    /** access lasts until then; an active membership renews then */
    paid_through: m.paidThrough.toISOString(),
    member: isCurrent(m, now),
  };
}

/**
 * A member now: an active membership (its renewal may still be due, the sweep decides), or a cancelled one whose
 * paid period has not ended. An ended one is not.
 */
function isCurrent(m: Pick<CreatorMembership, "status" | "paidThrough">, now: Date): boolean {
  return m.status === "active" || (m.status === "cancelled" && m.paidThrough > now);
}

/**
 * Moves one period's price: charged from the fan, granted to the creator, in the caller's transaction. The keys name
 * the membership and the period, so a period is paid once however often this runs; a short balance throws 402 and
 * the caller's transaction leaves nothing behind.
 */
async function payPeriod(credits: Deps["credits"], tx: Tx, m: { id: number; fanUserId: number; price: number; period: number }, creatorId: number) {
  const reference = `creator_membership:${m.id}`;
  const key = `creator-membership:${m.id}:period:${m.period}`;
  await credits.charge({ userId: m.fanUserId, amount: m.price, reason: "creator_membership", idempotencyKey: `${key}:charge`, reference }, tx);
  await credits.grant({ userId: creatorId, amount: m.price, reason: EARNING_REASON.membership, idempotencyKey: `${key}:earn`, reference }, tx);
}

/**
 * Renews one due membership for its next period, or ends it when it cannot be renewed (a short balance, or the page
 * no longer offers memberships or is not up). The period number in the conditional update is the guard: of two
 * sweeps at once one moves it, the other finds nothing to do. A price the creator lowered applies from the renewal;
 * a raised one does not touch running memberships.
 */
async function renewOne({ db, credits }: Deps, id: number, period: number, now: Date): Promise<"renewed" | "ended" | "skipped"> {
  try {
    const renewed = await db.$transaction(async (tx) => {
      const row = await q.renewMembership.first(tx, { id, period, now, paidThrough: new Date(now.getTime() + PERIOD_MS) });
      if (!row) return false;
      await payPeriod(credits, tx, { id, fanUserId: row.fan_user_id, price: row.price, period: period + 1 }, row.creator_id);
      return true;
    });
    if (renewed) return "renewed";
  } catch (err) {
    if (!(err instanceof HttpError && err.status === 402)) throw err;
  }
  // not renewed: end it, unless another sweep renewed it meanwhile (then its period moved on)
  const ended = await db.creatorMembership.updateMany({
    where: { id, status: "active", period, paidThrough: { lte: now } },
    data: { status: "ended", endedAt: now },
  });
  return ended.count ? "ended" : "skipped";
}

/**
 * Paid creator memberships (issue 16, decision 204): credits per period from the fan to the creator through the
 * ledger. Owns creator_memberships. The provider-billed plan subscription is the memberships domain, a different thing.
 */
export function createCreatorMemberships(deps: Deps) {
  const { db, credits } = deps;
  return {
    /** The viewer's membership of a page (any status), or null. */
    async of(pageId: number, userId: number | null) {
      if (userId === null) return null;
      const m = await db.creatorMembership.findUnique({ where: { creatorPageId_fanUserId: { creatorPageId: pageId, fanUserId: userId } } });
      return m ? membershipView(m) : null;
    },

    /** The pages among `pageIds` the user is a member of now, in one read (the "Following" feed's members-only items). */
    async memberOf(userId: number, pageIds: number[], now = new Date()): Promise<Set<number>> {
      if (!pageIds.length) return new Set();
      const rows = await db.creatorMembership.findMany({
        where: { fanUserId: userId, creatorPageId: { in: pageIds } },
        select: { creatorPageId: true, status: true, paidThrough: true },
      });
      return new Set(rows.filter((m) => isCurrent(m, now)).map((m) => m.creatorPageId));
    },

    /** Whether the user is a member of the page now (what members-only media is checked against on every request). */
    async isMember(pageId: number, userId: number, now = new Date()): Promise<boolean> {
      const m = await db.creatorMembership.findUnique({
        where: { creatorPageId_fanUserId: { creatorPageId: pageId, fanUserId: userId } },
        select: { status: true, paidThrough: true },
      });
      return m !== null && isCurrent(m, now);
    },

    /**
     * A fan joins (or rejoins) a page's membership at its price; the first period is paid in the transaction that
     * makes the row. One row per fan and page, and every change is conditional, so concurrent joins charge once:
     * a new row is inserted once (the others wait on the unique index, then find it); a cancelled one still paid
     * resumes without a charge; an ended one starts its next period (fresh keys) once.
     */
    async join(fanId: number, page: CreatorPage) {
      if (page.userId === fanId) throw HttpError.badRequest(M.ownMembership);
      if (!page.membershipPrice) throw HttpError.badRequest(M.noMembership);
      const price = page.membershipPrice;
      await db.$transaction(async (tx) => {
        await holdLivePage(tx, page.id);
        const now = new Date();
        const through = new Date(now.getTime() + PERIOD_MS);
        const created = await q.insertMembership.first(tx, { pageId: page.id, fanId, price, through, now });
        if (created) return payPeriod(credits, tx, { id: created.id, fanUserId: fanId, price, period: 1 }, page.userId);
        const where = { creatorPageId: page.id, fanUserId: fanId };
        const resumed = await tx.creatorMembership.updateMany({
          where: { ...where, status: "cancelled", paidThrough: { gt: now } },
          data: { status: "active", cancelledAt: null },
        });
        if (resumed.count) return;
        const restarted = await q.restartMembership.first(tx, { pageId: page.id, fanId, price, through, now });
        if (restarted) await payPeriod(credits, tx, { id: restarted.id, fanUserId: fanId, price, period: restarted.period }, page.userId);
        // otherwise it is active already: joining again changes nothing
      });
      const m = await db.creatorMembership.findUniqueOrThrow({ where: { creatorPageId_fanUserId: { creatorPageId: page.id, fanUserId: fanId } } });
      return membershipView(m);
    },

    /** Stops the next renewal; what was paid stays until its period ends. Cancelling again changes nothing. */
    async cancel(fanId: number, pageId: number) {
      const where = { creatorPageId: pageId, fanUserId: fanId };
      await db.creatorMembership.updateMany({ where: { ...where, status: "active" }, data: { status: "cancelled", cancelledAt: new Date() } });
      const m = await db.creatorMembership.findUnique({ where: { creatorPageId_fanUserId: where } });
      if (!m || !isCurrent(m, new Date())) throw HttpError.badRequest(M.notMember);
      return membershipView(m);
    },

    /**
     * The renewal sweep (with the order sweep, every ORDER_SWEEP_SECONDS on each API instance): memberships whose
     * period ended renew from the fan's balance, or end; cancelled ones past their period end.
     */
    async renewDue(now = new Date()): Promise<{ renewed: number; ended: number }> {
      const due = await db.creatorMembership.findMany({
        where: { status: { in: ["active", "cancelled"] }, paidThrough: { lte: now } },
        select: { id: true, status: true, period: true },
        orderBy: { paidThrough: "asc" },
        take: 500,
      });
      let renewed = 0;
      let ended = 0;
      for (const m of due) {
        if (m.status === "cancelled") {
          ended += (
            await db.creatorMembership.updateMany({
              where: { id: m.id, status: "cancelled", paidThrough: { lte: now } },
              data: { status: "ended", endedAt: now },
            })
          ).count;
          continue;
        }
        const outcome = await renewOne(deps, m.id, m.period, now);
        if (outcome === "renewed") renewed++;
        if (outcome === "ended") ended++;
      }
      return { renewed, ended };
    },

    /** Guest merge (auth): a guest's memberships become the account's; a page both belong to keeps the account's row. */
    async moveToUser(tx: Tx, fromUserId: number, toUserId: number): Promise<void> {
      await q.dropSharedGuestMemberships.rows(tx, { fromUserId, toUserId });
      await tx.creatorMembership.updateMany({ where: { fanUserId: fromUserId }, data: { fanUserId: toUserId } });
    },
  };
}

export type CreatorMemberships = ReturnType<typeof createCreatorMemberships>;
