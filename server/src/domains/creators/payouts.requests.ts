import type { CreatorPayout, Prisma } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import { PAYOUT_MESSAGES as M, PAYOUT_MIN_CREDITS, type EarningsView } from "../../contract/creator-payouts.ts";
import { HttpError } from "../../http/errors.ts";
import { earningsOf, lockPage, type PayoutsDeps } from "./payouts.earnings.ts";
import type { PayoutDecision } from "./payout-mail.ts";
import type { PayoutFilter } from "./payouts.schema.ts";

function payoutView(p: CreatorPayout) {
  return {
    id: p.id,
    amount: p.amount,
    status: p.status,
    reference: p.reference,
    reject_reason: p.rejectReason,
    created_at: p.createdAt.toISOString(),
    decided_at: p.decidedAt?.toISOString() ?? null,
  };
}

export const withPage = { creatorPage: { select: { userId: true, homeLink: true } } } as const;

export async function pageOfCreator(db: Db, userId: number) {
  const page = await db.creatorPage.findUnique({ where: { userId }, select: { id: true } });
  if (!page) throw HttpError.notFound(CREATOR_MESSAGES.noPage);
  return page;
}

/** Moves a requested payout to its decision, once: a payout decided already answers 409, one that does not exist 404. */
async function decideRequested(tx: Tx, id: number, data: Prisma.CreatorPayoutUpdateManyMutationInput) {
  const moved = await tx.creatorPayout.updateMany({ where: { id, status: "requested" }, data });
  if (!moved.count) throw (await tx.creatorPayout.count({ where: { id } })) ? HttpError.conflict(M.notOpen) : HttpError.notFound();
  return tx.creatorPayout.findUniqueOrThrow({ where: { id }, include: { creatorPage: { select: { userId: true } } } });
}

/** Payouts: asked for by the creator, paid or rejected by staff. */
export function createPayoutRequests({
  db,
  credits,
  audit,
  tellCreator,
}: Pick<PayoutsDeps, "db" | "credits" | "audit"> & { tellCreator(creatorUserId: number, d: PayoutDecision): Promise<void> }) {
  /** A payout for the console, with the creator's figures so staff see it is covered before paying. */
  async function getPayout(id: number) {
    const p = await db.creatorPayout.findUnique({ where: { id }, include: withPage });
    if (!p) return null;
    const { creatorPage, ...row } = p;
    return {
      ...row,
      creatorUserId: creatorPage.userId,
      homeLink: creatorPage.homeLink,
      earnings: await earningsOf(credits, db, creatorPage.userId, p.creatorPageId),
    };
  }

  return {
    async earnings(userId: number): Promise<EarningsView> {
      const page = await pageOfCreator(db, userId);
      return earningsOf(credits, db, userId, page.id);
    },

    /**
     * A payout of `amount` credits: within the page's lock, the amount is checked against what is payable, the row is
     * written and its credits leave the balance (a ledger charge keyed by the payout), all in one transaction. The
     * creator's idempotency key makes a retried request the same payout.
     */
    async request(userId: number, amount: number, idempotencyKey: string) {
      if (amount < PAYOUT_MIN_CREDITS) throw HttpError.badRequest(M.belowMinimum.replace("{{min}}", String(PAYOUT_MIN_CREDITS)));
      const payout = await db.$transaction(async (tx) => {
        const page = await lockPage(tx, { userId });
        if (!page) throw HttpError.notFound(CREATOR_MESSAGES.noPage);
        const again = await tx.creatorPayout.findUnique({ where: { creatorPageId_idempotencyKey: { creatorPageId: page.id, idempotencyKey } } });
        if (again) return again;
        if (amount > (await earningsOf(credits, tx, userId, page.id)).payable) throw HttpError.conflict(M.overPayable);
        const created = await tx.creatorPayout.create({ data: { creatorPageId: page.id, amount, idempotencyKey } });
        await credits.charge(
          { userId, amount, reason: "creator_payout", idempotencyKey: `creator-payout:${created.id}:hold`, reference: `creator_payout:${created.id}` },
          tx,
        );
        return created;
      });
      return payoutView(payout);
    },

    /** The caller's own payouts, newest first. */
    async mine(userId: number) {
      const page = await pageOfCreator(db, userId);
      const rows = await db.creatorPayout.findMany({ where: { creatorPageId: page.id }, orderBy: { id: "desc" }, take: 100 });
      return { list: rows.map(payoutView) };
    },

    /** The console's payout queue. */
    listPayouts: async (params: ListParams<PayoutFilter>) => {
      const page = await pageOf(db.creatorPayout, params, matching(params.filter, ["status", "creatorPageId"]), { include: withPage });
      return {
        ...page,
        rows: (page.rows as (CreatorPayout & { creatorPage: { userId: number; homeLink: string } })[]).map(({ creatorPage, ...p }) => ({
          ...p,
          creatorUserId: creatorPage.userId,
          homeLink: creatorPage.homeLink,
        })),
      };
    },
    getPayout,

    /**
     * Staff paid it outside (the reference names the transfer): the credits stay out of the balance. Once. Not while
     * the creator is banned: the payout waits until a moderator lifts the ban (or it is rejected, its credits kept).
     */
    async approve(staffId: number, id: number, reference: string) {
      const p = await db.$transaction(async (tx) => {
        const creator = await tx.creatorPayout.findUnique({ where: { id }, select: { creatorPage: { select: { user: { select: { bannedAt: true } } } } } });
        if (creator?.creatorPage.user.bannedAt) throw HttpError.conflict(M.creatorBanned);
        const p = await decideRequested(tx, id, { status: "approved", reference, decidedById: staffId, decidedAt: new Date() });
        await audit.record(tx, {
          staffId,
          action: "approve_payout",
          resource: "CreatorPayout",
          resourceId: id,
          before: { status: "requested", amount: p.amount },
          after: { status: "approved", amount: p.amount, reference },
          reason: reference,
        });
        return p;
      });
      await tellCreator(p.creatorPage.userId, { id, amount: p.amount, outcome: "approved", reference });
      return getPayout(id);
    },

    /** Not paid: the held credits return to the creator's balance, once (the status change and the key guard it). */
    async reject(staffId: number, id: number, reason: string) {
      const p = await db.$transaction(async (tx) => {
        const p = await decideRequested(tx, id, { status: "rejected", rejectReason: reason, decidedById: staffId, decidedAt: new Date() });
        await credits.refund(
          {
            userId: p.creatorPage.userId,
            amount: p.amount,
            reason: "creator_payout_return",
            idempotencyKey: `creator-payout:${id}:return`,
            reference: `creator_payout:${id}`,
          },
          tx,
        );
        await audit.record(tx, {
          staffId,
          action: "reject_payout",
          resource: "CreatorPayout",
          resourceId: id,
          before: { status: "requested", amount: p.amount },
          after: { status: "rejected", amount: p.amount },
          reason,
        });
        return p;
      });
      await tellCreator(p.creatorPage.userId, { id, amount: p.amount, outcome: "rejected", reason });
      return getPayout(id);
    },
  };
}
