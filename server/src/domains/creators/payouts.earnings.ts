import type { Db, Tx } from "../../db/client.ts";
import { EARNING_REASONS, PAYOUT_MIN_CREDITS, type EarningsView } from "../../contract/creator-payouts.ts";
import type { Language } from "../../contract/locales.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { lockPageById, lockPageOfUser } from "./creators.queries.ts";

/** What payouts and disputes are built with (payouts.service.ts). */
export interface PayoutsDeps {
  db: Db;
  /** the ledger: a payout's credits leave the balance when it is asked for and come back once if it is rejected */
  credits: Pick<CreditsService, "charge" | "refund" | "chargeUpTo" | "sumOfReasons" | "balance">;
  audit: Pick<AuditService, "record">;
  /** users owns accounts: where and in which language to tell a creator their payout was decided */
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  /** the mailer (outbox first, then SMTP when configured) */
  sendMail(mail: { to: string; subject: string; body: string }): Promise<void>;
}

type EarningsCredits = Pick<CreditsService, "sumOfReasons" | "balance">;

/**
 * Locks the creator's page row for the rest of `tx`: everything that changes what a creator may be paid (a payout
 * asked for, a dispute opened or resolved) takes this lock first, so the payable figure each reads is the figure
 * after the others committed, and 20 payouts asked for at once for the whole amount make one.
 */
export async function lockPage(tx: Tx, where: { userId: number } | { pageId: number }) {
  return "userId" in where ? lockPageOfUser.first(tx, where) : lockPageById.first(tx, where);
}

/** The creator's figures, read inside `c` (after lockPage when a decision depends on them). */
export async function earningsOf(credits: EarningsCredits, c: Tx | Db, userId: number, pageId: number): Promise<EarningsView> {
  const [earned, escrow, dispute, shortfall, tipShortfall, payouts, balance] = await Promise.all([
    credits.sumOfReasons(userId, EARNING_REASONS, c),
    c.customRequest.aggregate({ where: { creatorPageId: pageId, status: { in: ["pending", "accepted"] } }, _sum: { price: true } }),
    c.customRequest.aggregate({ where: { creatorPageId: pageId, status: "delivered", disputeStatus: "open" }, _sum: { price: true } }),
    c.customRequest.aggregate({ where: { creatorPageId: pageId }, _sum: { disputeShortfall: true } }),
    c.creatorTip.aggregate({ where: { creatorPageId: pageId }, _sum: { reversalShortfall: true } }),
    c.creatorPayout.groupBy({ by: ["status"], where: { creatorPageId: pageId, status: { in: ["requested", "approved"] } }, _sum: { amount: true } }),
    credits.balance(userId, c),
  ]);
  const pending = payouts.find((p) => p.status === "requested")?._sum.amount ?? 0;
  const paid = payouts.find((p) => p.status === "approved")?._sum.amount ?? 0;
  const inDispute = dispute._sum.price ?? 0;
  // what dispute refunds and tip reversals could not take back
  const owed = (shortfall._sum.disputeShortfall ?? 0) + (tipShortfall._sum.reversalShortfall ?? 0);
  // what was earned and not yet asked for, less disputed deliveries; never more than the balance (earned credits
  // spent on generations are spent). What refunds could not take back is held back from both: it is never paid
  // out in cash (docs/decisions/206)
  const payable = Math.max(0, Math.min(balance.points - owed, earned - owed - inDispute - pending - paid));
  return {
    earned,
    in_escrow: escrow._sum.price ?? 0,
    in_dispute: inDispute,
    payout_pending: pending,
    paid_out: paid,
    payable,
    balance: balance.points,
    shortfall: owed,
    min_payout: PAYOUT_MIN_CREDITS,
  };
}
