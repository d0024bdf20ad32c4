import type { CustomRequest } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { CREATOR_MESSAGES as M, type CustomRequestStatus } from "../../contract/creators.ts";
import { LIMIT_MESSAGES, quotaMessage } from "../../contract/limits.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { HttpError } from "../../http/errors.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { livePage } from "./creators.pages.ts";
import { holdLivePage } from "./creators.page-hold.ts";
import { insertCustomRequest, lockCreatorQuota } from "./creators.queries.ts";
import type { Side } from "../../contract/sides.ts";

interface RequestDeps {
  db: Db;
  /** the ledger: a request's price is held from the fan, then released to the creator or returned, each once */
  credits: Pick<CreditsService, "charge" | "refund" | "grant">;
  /** generation owns creations: one of the user's own, whatever its status (generation.own, which throws for anything else) */
  ownCreation(userId: number, taskId: number): Promise<{ status: string; state: string }>;
  /** Requests one fan may have waiting for an answer over every page, and send in an hour (docs/decisions/251). */
  limits: { open: number; perHour: number };
  requestHours: number;
}

function requestView(r: CustomRequest) {
  return {
    id: r.id,
    text: r.text,
    price: r.price,
    status: r.status as CustomRequestStatus,
    delivered_task_id: r.deliveredTaskId,
    satisfied: r.satisfied,
    dispute_status: r.disputeStatus,
    created_at: r.createdAt.toISOString(),
    expires_at: r.expiresAt.toISOString(),
  };
}

/**
 * Moves a request from one of `from` to `to` (a conditional update: of two racing answers one wins) and settles its
 * money in the same transaction: declined or expired returns the hold to the fan, delivered releases it to the
 * creator. Keys per request make a repeat a no-op in the ledger too. False when the request was not in `from`.
 */
export async function settle(
  credits: RequestDeps["credits"],
  tx: Tx,
  id: number,
  from: CustomRequestStatus[],
  to: CustomRequestStatus,
  taskId?: number,
): Promise<boolean> {
  const moved = await tx.customRequest.updateMany({
    where: { id, status: { in: from } },
    data: { status: to, answeredAt: new Date(), ...(taskId ? { deliveredTaskId: taskId } : {}) },
  });
  if (!moved.count) return false;
  const r = await tx.customRequest.findUniqueOrThrow({ where: { id }, include: { creatorPage: { select: { userId: true } } } });
  const reference = `custom_request:${id}`;
  if (to === "declined" || to === "expired")
    await credits.refund(
      { userId: r.fanUserId, amount: r.price, reason: "custom_request_refund", idempotencyKey: `custom-request:${id}:return`, reference },
      tx,
    );
  if (to === "delivered")
    await credits.grant(
      { userId: r.creatorPage.userId, amount: r.price, reason: EARNING_REASON.release, idempotencyKey: `custom-request:${id}:release`, reference },
      tx,
    );
  return true;
}

/** Paid custom requests: a fan asks, the creator accepts, declines or delivers, the fan rates; unanswered ones expire. */
export function createCustomRequests({ db, credits, ownCreation, requestHours, limits }: RequestDeps) {
  /**
   * Refuses a request that takes the fan past a limit; the new row is counted, and rolled back with the refusal. The
   * hourly rate counts the rows of the last hour, so a replayed request (its idempotency key) never counts twice.
   */
  async function withinLimits(tx: Tx, fanId: number): Promise<void> {
    await lockCreatorQuota.rows(tx, { kind: "open-requests", id: fanId });
    const open = await tx.customRequest.count({ where: { fanUserId: fanId, status: { in: ["pending", "accepted"] } } });
    if (open > limits.open) throw HttpError.conflict(quotaMessage("openRequests", limits.open));
    const lastHour = await tx.customRequest.count({ where: { fanUserId: fanId, createdAt: { gte: new Date(Date.now() - 3600_000) } } });
    if (lastHour > limits.perHour) throw new HttpError(429, LIMIT_MESSAGES.hourly);
  }

  /** A creator's answer to one of their page's requests. */
  async function answer(creatorId: number, id: number, from: CustomRequestStatus[], to: CustomRequestStatus, taskId?: number) {
    const r = await db.customRequest.findFirst({ where: { id, creatorPage: { userId: creatorId } }, select: { id: true } });
    if (!r) throw HttpError.notFound();
    if (!(await db.$transaction((tx) => settle(credits, tx, id, from, to, taskId)))) throw HttpError.conflict(M.requestNotOpen);
    return requestView(await db.customRequest.findUniqueOrThrow({ where: { id } }));
  }

  /** A delivery is one of the creator's own finished creations, still up. */
  async function isFinishedCreation(userId: number, taskId: number) {
    const task = await ownCreation(userId, taskId).catch(() => null);
    return task?.status === "succeeded" && task.state === "active";
  }

  return {
    /**
     * A fan's paid custom request: the row and the hold of its price (a ledger charge keyed by the request) commit
     * together, so a short balance leaves nothing behind; the fan's idempotency key makes a double tap one request.
     */
    async request(fanId: number, homeLink: string, text: string, idempotencyKey: string) {
      const page = await livePage(db, homeLink);
      if (page.userId === fanId) throw HttpError.badRequest(M.ownPage);
      if (!page.requestPrice) throw HttpError.badRequest(M.noRequests);
      const price = page.requestPrice;
      const held = await db.$transaction(async (tx) => {
        await holdLivePage(tx, page.id);
        const created = await insertCustomRequest.first(tx, {
          pageId: page.id,
          fanId,
          text,
          price,
          idempotencyKey,
          expiresAt: new Date(Date.now() + requestHours * 3600_000),
        });
        if (!created) return tx.customRequest.findUniqueOrThrow({ where: { fanUserId_idempotencyKey: { fanUserId: fanId, idempotencyKey } } });
        await withinLimits(tx, fanId);
        await credits.charge(
          {
            userId: fanId,
            amount: price,
            reason: "custom_request_hold",
            idempotencyKey: `custom-request:${created.id}:hold`,
            reference: `custom_request:${created.id}`,
          },
          tx,
        );
        return tx.customRequest.findUniqueOrThrow({ where: { id: created.id } });
      });
      return requestView(held);
    },

    /** The fan's requests, or the creator's incoming ones, newest first. */
    async requests(userId: number, as: Side) {
      const where = as === "fan" ? { fanUserId: userId } : { creatorPage: { userId } };
      const rows = await db.customRequest.findMany({
        where,
        orderBy: { id: "desc" },
        take: 100,
        include: { creatorPage: { select: { homeLink: true, title: true } } },
      });
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
      const rated = await db.customRequest.updateMany({
        where: { id, fanUserId: fanId, status: "delivered", satisfied: null },
        data: { satisfied, ratedAt: new Date() },
      });
      if (!rated.count) throw HttpError.conflict(M.requestNotOpen);
      return requestView(await db.customRequest.findUniqueOrThrow({ where: { id } }));
    },

    /**
     * Requests left unanswered past their time return to the fan. Each moves from open to expired in the transaction
     * that refunds it, conditionally, so a sweep running twice (or on two instances) refunds once.
     */
    async expireRequests(now = new Date()): Promise<number> {
      const due = await db.customRequest.findMany({
        where: { status: { in: ["pending", "accepted"] }, expiresAt: { lte: now } },
        select: { id: true },
        take: 500,
      });
      let expired = 0;
      for (const { id } of due) {
        const moved = await db.$transaction((tx) => settle(credits, tx, id, ["pending", "accepted"], "expired"));
        if (moved) expired++;
      }
      return expired;
    },
  };
}
