import type { Tx } from "../../db/client.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { PERIOD_MS } from "./creator-memberships.service.ts";
import { endPageMemberships, lockPageOfUser } from "./creators.queries.ts";
import { settle } from "./creators.requests.ts";

type Credits = Pick<CreditsService, "charge" | "refund" | "grant" | "chargeUpTo">;

/** Credits of a period not used yet at `now`: the share of the period still ahead, rounded down, never above the price. */
export function unusedPart(m: { price: number; paidThrough: Date }, now: Date): number {
  const ahead = Math.max(0, m.paidThrough.getTime() - now.getTime());
  return Math.min(m.price, Math.floor((m.price * ahead) / PERIOD_MS));
}

/**
 * The page's running memberships end; each fan gets back the unused part of the period they paid, and the creator's
 * earnings lose it (as far as the balance still holds it, like a dispute's clawback). Keyed by membership and period,
 * so a membership's period is refunded once however often a ban (or a ban, an unban and a ban) reaches it.
 */
async function refundMembers(credits: Credits, tx: Tx, page: { id: number; user_id: number }, now: Date) {
  for (const m of await endPageMemberships.rows(tx, { pageId: page.id, now })) {
    const amount = unusedPart({ price: m.price, paidThrough: m.paid_through }, now);
    if (!amount) continue;
    const key = `creator-membership:${m.id}:period:${m.period}`;
    const reference = `creator_membership:${m.id}`;
    await credits.refund({ userId: m.fan_user_id, amount, reason: "creator_membership_refund", idempotencyKey: `${key}:ban-refund`, reference }, tx);
    await credits.chargeUpTo({ userId: page.user_id, amount, reason: EARNING_REASON.membershipClawback, idempotencyKey: `${key}:ban-clawback`, reference }, tx);
  }
}

/**
 * What a ban ends on creator pages (issue 29), in the ban's transaction and on its handle only. The account's own
 * memberships as a fan end at once (their periods were served: nothing is refunded). When the account has a page, the
 * page row is locked first (sales hold it, creators.page-hold.ts, so none commits unseen), its memberships end with
 * the unused part refunded, and its open custom requests are declined, their held price returned to the fans once.
 * The page itself goes offline through its owner's ban (creators.queries.ts activePageByLink), so an unban restores it.
 */
export function createCreatorBans(credits: Credits) {
  return async function accountBanned(tx: Tx, userId: number, now = new Date()): Promise<void> {
    await tx.creatorMembership.updateMany({ where: { fanUserId: userId, status: { in: ["active", "cancelled"] } }, data: { status: "ended", endedAt: now } });
    const page = await lockPageOfUser.first(tx, { userId });
    if (!page) return;
    await refundMembers(credits, tx, page, now);
    const open = await tx.customRequest.findMany({ where: { creatorPageId: page.id, status: { in: ["pending", "accepted"] } }, select: { id: true } });
    for (const r of open) await settle(credits, tx, r.id, ["pending", "accepted"], "declined");
  };
}
