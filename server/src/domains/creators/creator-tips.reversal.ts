import type { CreatorTip } from "../../db/generated/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { TIP_LEDGER_REASON, TIP_MESSAGES as M, type TipStatus } from "../../contract/tips.ts";
import { HttpError } from "../../http/errors.ts";
import { tipKey } from "./creator-tips.service.ts";
import type { TipFilter } from "./creator-tips.schema.ts";
import { lockPage, type PayoutsDeps } from "./payouts.earnings.ts";
import { withPage } from "./payouts.requests.ts";

function tipRecord({ creatorPage, ...t }: CreatorTip & { creatorPage: { userId: number; homeLink: string } }) {
  return { ...t, status: t.status as TipStatus, creatorUserId: creatorPage.userId, homeLink: creatorPage.homeLink };
}

/**
 * Tips in the console, and their reversal as fraudulent (docs/decisions/304), the way a dispute's refund is settled
 * (payouts.disputes.ts): under the page's lock, so a payout asked for at the same moment reads the figure after it.
 */
export function createTipReversals({ db, credits, audit }: Pick<PayoutsDeps, "db" | "credits" | "audit">) {
  async function getTip(id: number) {
    const t = await db.creatorTip.findUnique({ where: { id }, include: withPage });
    return t && tipRecord(t);
  }

  return {
    listTips: async (params: ListParams<TipFilter>) => {
      const page = await pageOf(db.creatorTip, params, matching(params.filter, ["status", "creatorPageId", "fanUserId"]), { include: withPage });
      return { ...page, rows: (page.rows as Parameters<typeof tipRecord>[0][]).map(tipRecord) };
    },
    getTip,

    /**
     * Gives the fan the tip back and takes it from the creator's earnings as far as the balance still holds it; the
     * rest (spent, or paid out) is recorded as the shortfall and held back from payouts, as a dispute's is. One
     * conditional update decides it, so racing clicks reverse once; the ledger keys name the tip too. Audited.
     */
    async reverseTip(staffId: number, id: number, note: string) {
      const t = await db.creatorTip.findUnique({ where: { id }, include: withPage });
      if (!t) throw HttpError.notFound();
      await db.$transaction(async (tx) => {
        await lockPage(tx, { pageId: t.creatorPageId });
        const moved = await tx.creatorTip.updateMany({
          where: { id, status: "completed" },
          data: { status: "reversed", reversedAt: new Date(), reversedById: staffId, reversalNote: note },
        });
        if (!moved.count) throw HttpError.conflict(M.alreadyReversed);
        const reference = `creator_tip:${id}`;
        await credits.refund(
          { userId: t.fanUserId, amount: t.amount, reason: TIP_LEDGER_REASON.reversed, idempotencyKey: tipKey(id, "reverse-refund"), reference },
          tx,
        );
        const taken = await credits.chargeUpTo(
          { userId: t.creatorPage.userId, amount: t.amount, reason: EARNING_REASON.tipClawback, idempotencyKey: tipKey(id, "clawback"), reference },
          tx,
        );
        const shortfall = t.amount - taken;
        if (shortfall) await tx.creatorTip.update({ where: { id }, data: { reversalShortfall: shortfall } });
        await audit.record(tx, {
          staffId,
          action: "tip_reverse",
          resource: "CreatorTip",
          resourceId: id,
          before: { status: "completed" },
          after: { status: "reversed", amount: t.amount, shortfall },
          reason: note,
        });
      });
      return getTip(id);
    },
  };
}
