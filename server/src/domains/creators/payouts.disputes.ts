import type { CustomRequest } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { DISPUTE_WINDOW_DAYS, EARNING_REASON, PAYOUT_MESSAGES as M, type DisputeOutcome } from "../../contract/creator-payouts.ts";
import { HttpError } from "../../http/errors.ts";
import { lockPage, type PayoutsDeps } from "./payouts.earnings.ts";
import { withPage } from "./payouts.requests.ts";
import type { DisputeFilter } from "./payouts.schema.ts";

function disputeView(r: CustomRequest & { creatorPage: { userId: number; homeLink: string } }) {
  return {
    id: r.id,
    creatorPageId: r.creatorPageId,
    creatorUserId: r.creatorPage.userId,
    homeLink: r.creatorPage.homeLink,
    fanUserId: r.fanUserId,
    text: r.text,
    price: r.price,
    deliveredTaskId: r.deliveredTaskId,
    disputeStatus: r.disputeStatus,
    disputeReason: r.disputeReason,
    disputedAt: r.disputedAt,
    disputeResolvedAt: r.disputeResolvedAt,
    disputeResolvedById: r.disputeResolvedById,
    disputeNote: r.disputeNote,
    disputeShortfall: r.disputeShortfall,
    createdAt: r.createdAt,
  };
}

/** Requests in dispute: opened by the fan, resolved by staff (a refund, or the delivery upheld). */
export function createDisputes({ db, credits, audit }: Pick<PayoutsDeps, "db" | "credits" | "audit">) {
  async function getDispute(id: number) {
    const r = await db.customRequest.findFirst({ where: { id, disputeStatus: { not: null } }, include: withPage });
    return r && disputeView(r);
  }

  return {
    /** A fan disputes a delivery they rated "not satisfied", once, within the window; its price stops being payable. */
    async dispute(fanId: number, id: number, reason: string) {
      const r = await db.customRequest.findFirst({ where: { id, fanUserId: fanId }, select: { creatorPageId: true } });
      if (!r) throw HttpError.notFound();
      const since = new Date(Date.now() - DISPUTE_WINDOW_DAYS * 86_400_000);
      await db.$transaction(async (tx) => {
        await lockPage(tx, { pageId: r.creatorPageId });
        const opened = await tx.customRequest.updateMany({
          where: { id, fanUserId: fanId, status: "delivered", satisfied: false, disputeStatus: null, answeredAt: { gte: since } },
          data: { disputeStatus: "open", disputeReason: reason, disputedAt: new Date() },
        });
        if (!opened.count) throw HttpError.conflict(M.disputeNotAllowed);
      });
      const row = await db.customRequest.findUniqueOrThrow({ where: { id } });
      return { id: row.id, dispute_status: row.disputeStatus, dispute_reason: row.disputeReason };
    },

    listDisputes: async (params: ListParams<DisputeFilter>) => {
      const page = await pageOf(
        db.customRequest,
        params,
        { disputeStatus: params.filter.disputeStatus ?? { not: null }, ...matching(params.filter, ["creatorPageId", "fanUserId"]) },
        { include: withPage },
      );
      return { ...page, rows: (page.rows as Parameters<typeof disputeView>[0][]).map(disputeView) };
    },
    getDispute,

    /**
     * Refund the fan (the price back; the creator's earnings reduced through the ledger by what the balance still
     * holds, the rest recorded as the shortfall) or uphold the delivery. One conditional update decides it, so
     * racing clicks resolve it once; audited.
     */
    async resolveDispute(staffId: number, id: number, outcome: DisputeOutcome, note: string) {
      const r = await db.customRequest.findFirst({ where: { id, disputeStatus: { not: null } }, include: withPage });
      if (!r) throw HttpError.notFound();
      await db.$transaction(async (tx) => {
        await lockPage(tx, { pageId: r.creatorPageId });
        const to = outcome === "refund" ? "refunded" : "upheld";
        const moved = await tx.customRequest.updateMany({
          where: { id, disputeStatus: "open" },
          data: { disputeStatus: to, disputeNote: note, disputeResolvedById: staffId, disputeResolvedAt: new Date() },
        });
        if (!moved.count) throw HttpError.conflict(M.disputeClosed);
        let shortfall = 0;
        if (outcome === "refund") {
          const reference = `custom_request:${id}`;
          await credits.refund(
            { userId: r.fanUserId, amount: r.price, reason: "custom_request_dispute_refund", idempotencyKey: `custom-request:${id}:dispute-refund`, reference },
            tx,
          );
          const taken = await credits.chargeUpTo(
            { userId: r.creatorPage.userId, amount: r.price, reason: EARNING_REASON.clawback, idempotencyKey: `custom-request:${id}:clawback`, reference },
            tx,
          );
          shortfall = r.price - taken;
          if (shortfall) await tx.customRequest.update({ where: { id }, data: { disputeShortfall: shortfall } });
        }
        await audit.record(tx, {
          staffId,
          action: `dispute_${outcome}`,
          resource: "CustomRequest",
          resourceId: id,
          before: { disputeStatus: "open" },
          after: { disputeStatus: to, price: r.price, shortfall },
          reason: note,
        });
      });
      return getDispute(id);
    },
  };
}
