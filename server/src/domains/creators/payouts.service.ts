import type { CreatorPayout, CustomRequest } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { matching, pageOf, type ListParams } from "../../db/paging.ts";
import { CREATOR_MESSAGES } from "../../contract/creators.ts";
import {
  DISPUTE_WINDOW_DAYS, EARNING_REASON, EARNING_REASONS, PAYOUT_MESSAGES as M, PAYOUT_MIN_CREDITS, type DisputeOutcome, type EarningsView,
} from "../../contract/creator-payouts.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import type { Language } from "../../contract/locales.ts";
import { payoutMail, type PayoutDecision } from "./payout-mail.ts";
import type { DisputeFilter, PayoutFilter } from "./payouts.schema.ts";

interface Deps {
  db: Db;
  /** the ledger: a payout's credits leave the balance when it is asked for and come back once if it is rejected */
  credits: Pick<CreditsService, "charge" | "refund" | "chargeUpTo" | "sumOfReasons" | "balance">;
  audit: Pick<AuditService, "record">;
  /** users owns accounts: where and in which language to tell a creator their payout was decided */
  contactOf(userId: number): Promise<{ email: string; language: Language } | null>;
  /** the mailer (outbox first, then SMTP when configured) */
  sendMail(mail: { to: string; subject: string; body: string }): Promise<void>;
}

/**
 * Locks the creator's page row for the rest of `tx`: everything that changes what a creator may be paid (a payout
 * asked for, a dispute opened or resolved) takes this lock first, so the payable figure each reads is the figure
 * after the others committed, and 20 payouts asked for at once for the whole amount make one.
 */
async function lockPage(tx: Tx, where: { userId: number } | { pageId: number }): Promise<{ id: number; user_id: number } | null> {
  const rows =
    "userId" in where
      ? await tx.$queryRaw<{ id: number; user_id: number }[]>`SELECT id, user_id FROM creator_pages WHERE user_id = ${where.userId} FOR UPDATE`
      : await tx.$queryRaw<{ id: number; user_id: number }[]>`SELECT id, user_id FROM creator_pages WHERE id = ${where.pageId} FOR UPDATE`;
  return rows[0] ?? null;
}

function payoutView(p: CreatorPayout) {
  return { id: p.id, amount: p.amount, status: p.status, reference: p.reference, reject_reason: p.rejectReason, created_at: p.createdAt.toISOString(), decided_at: p.decidedAt?.toISOString() ?? null };
}

/**
 * Creator earnings, payouts and requests in dispute (issue 16 items 5 and 6, docs/decisions/206). Owns
 * `creator_payouts` and the dispute columns of `custom_requests`; every credit moves through the ledger.
 */
export function createPayoutsService({ db, credits, audit, contactOf, sendMail }: Deps) {
  /** The creator's figures, read inside `c` (after lockPage when a decision depends on them). */
  async function figures(c: Tx | Db, userId: number, pageId: number): Promise<EarningsView> {
    const [earned, escrow, dispute, shortfall, payouts, balance] = await Promise.all([
      credits.sumOfReasons(userId, EARNING_REASONS, c),
      c.customRequest.aggregate({ where: { creatorPageId: pageId, status: { in: ["pending", "accepted"] } }, _sum: { price: true } }),
      c.customRequest.aggregate({ where: { creatorPageId: pageId, status: "delivered", disputeStatus: "open" }, _sum: { price: true } }),
      c.customRequest.aggregate({ where: { creatorPageId: pageId }, _sum: { disputeShortfall: true } }),
      c.creatorPayout.groupBy({ by: ["status"], where: { creatorPageId: pageId, status: { in: ["requested", "approved"] } }, _sum: { amount: true } }),
      credits.balance(userId),
    ]);
    const pending = payouts.find((p) => p.status === "requested")?._sum.amount ?? 0;
    const paid = payouts.find((p) => p.status === "approved")?._sum.amount ?? 0;
    const inDispute = dispute._sum.price ?? 0;
    const owed = shortfall._sum.disputeShortfall ?? 0;
    // what was earned and not yet asked for, less disputed deliveries; never more than the balance (earned credits
    // spent on generations are spent). What refunds could not take back is held back from both: it is never paid
    // out in cash (docs/decisions/206)
    const payable = Math.max(0, Math.min(balance.points - owed, earned - owed - inDispute - pending - paid));
    return { earned, in_escrow: escrow._sum.price ?? 0, in_dispute: inDispute, payout_pending: pending, paid_out: paid, payable, balance: balance.points, shortfall: owed, min_payout: PAYOUT_MIN_CREDITS };
  }

  async function pageOfCreator(userId: number) {
    const page = await db.creatorPage.findUnique({ where: { userId }, select: { id: true } });
    if (!page) throw HttpError.notFound(CREATOR_MESSAGES.noPage);
    return page;
  }

  function disputeView(r: CustomRequest & { creatorPage: { userId: number; homeLink: string } }) {
    return {
      id: r.id, creatorPageId: r.creatorPageId, creatorUserId: r.creatorPage.userId, homeLink: r.creatorPage.homeLink, fanUserId: r.fanUserId, text: r.text, price: r.price,
      deliveredTaskId: r.deliveredTaskId, disputeStatus: r.disputeStatus, disputeReason: r.disputeReason, disputedAt: r.disputedAt, disputeResolvedAt: r.disputeResolvedAt,
      disputeResolvedById: r.disputeResolvedById, disputeNote: r.disputeNote, disputeShortfall: r.disputeShortfall, createdAt: r.createdAt,
    };
  }
  const withPage = { creatorPage: { select: { userId: true, homeLink: true } } } as const;

  /** A payout for the console, with the creator's figures so staff see it is covered before paying. */
  async function getPayout(id: number) {
    const p = await db.creatorPayout.findUnique({ where: { id }, include: withPage });
    if (!p) return null;
    const { creatorPage, ...row } = p;
    return { ...row, creatorUserId: creatorPage.userId, homeLink: creatorPage.homeLink, earnings: await figures(db, creatorPage.userId, p.creatorPageId) };
  }

  /**
   * Tells the creator how their payout was decided, in their language. Only the call whose conditional update decided
   * it gets here (a retried or racing decision answers 409 before), so the email goes once; after the commit, so a
   * slow mail server never holds the decision's locks.
   */
  async function tellCreator(creatorUserId: number, d: PayoutDecision) {
    const to = await contactOf(creatorUserId);
    if (to) await sendMail({ to: to.email, ...payoutMail(d, to.language) });
  }

  async function getDispute(id: number) {
    const r = await db.customRequest.findFirst({ where: { id, disputeStatus: { not: null } }, include: withPage });
    return r && disputeView(r);
  }

  return {
    async earnings(userId: number): Promise<EarningsView> {
      const page = await pageOfCreator(userId);
      return figures(db, userId, page.id);
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
        if (amount > (await figures(tx, userId, page.id)).payable) throw HttpError.conflict(M.overPayable);
        const created = await tx.creatorPayout.create({ data: { creatorPageId: page.id, amount, idempotencyKey } });
        await credits.charge({ userId, amount, reason: "creator_payout", idempotencyKey: `creator-payout:${created.id}:hold`, reference: `creator_payout:${created.id}` }, tx);
        return created;
      });
      return payoutView(payout);
    },

    /** The caller's own payouts, newest first. */
    async mine(userId: number) {
      const page = await pageOfCreator(userId);
      const rows = await db.creatorPayout.findMany({ where: { creatorPageId: page.id }, orderBy: { id: "desc" }, take: 100 });
      return { list: rows.map(payoutView) };
    },

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

    /** The console's payout queue. */
    admin: {
      listPayouts: async (params: ListParams<PayoutFilter>) => {
        const page = await pageOf(db.creatorPayout, params, matching(params.filter, ["status", "creatorPageId"]), { include: withPage });
        return { ...page, rows: (page.rows as (CreatorPayout & { creatorPage: { userId: number; homeLink: string } })[]).map(({ creatorPage, ...p }) => ({ ...p, creatorUserId: creatorPage.userId, homeLink: creatorPage.homeLink })) };
      },
      getPayout,

      /** Staff paid it outside (the reference names the transfer): the credits stay out of the balance. Once. */
      async approve(staffId: number, id: number, reference: string) {
        const p = await db.$transaction(async (tx) => {
          const moved = await tx.creatorPayout.updateMany({ where: { id, status: "requested" }, data: { status: "approved", reference, decidedById: staffId, decidedAt: new Date() } });
          if (!moved.count) throw (await tx.creatorPayout.count({ where: { id } })) ? HttpError.conflict(M.notOpen) : HttpError.notFound();
          const p = await tx.creatorPayout.findUniqueOrThrow({ where: { id }, include: { creatorPage: { select: { userId: true } } } });
          await audit.record(tx, { staffId, action: "approve_payout", resource: "CreatorPayout", resourceId: id, before: { status: "requested", amount: p.amount }, after: { status: "approved", amount: p.amount, reference }, reason: reference });
          return p;
        });
        await tellCreator(p.creatorPage.userId, { id, amount: p.amount, outcome: "approved", reference });
        return getPayout(id);
      },

      /** Not paid: the held credits return to the creator's balance, once (the status change and the key guard it). */
      async reject(staffId: number, id: number, reason: string) {
        const p = await db.$transaction(async (tx) => {
          const moved = await tx.creatorPayout.updateMany({ where: { id, status: "requested" }, data: { status: "rejected", rejectReason: reason, decidedById: staffId, decidedAt: new Date() } });
          if (!moved.count) throw (await tx.creatorPayout.count({ where: { id } })) ? HttpError.conflict(M.notOpen) : HttpError.notFound();
          const p = await tx.creatorPayout.findUniqueOrThrow({ where: { id }, include: { creatorPage: { select: { userId: true } } } });
          await credits.refund({ userId: p.creatorPage.userId, amount: p.amount, reason: "creator_payout_return", idempotencyKey: `creator-payout:${id}:return`, reference: `creator_payout:${id}` }, tx);
          await audit.record(tx, { staffId, action: "reject_payout", resource: "CreatorPayout", resourceId: id, before: { status: "requested", amount: p.amount }, after: { status: "rejected", amount: p.amount }, reason });
          return p;
        });
        await tellCreator(p.creatorPage.userId, { id, amount: p.amount, outcome: "rejected", reason });
        return getPayout(id);
      },

      listDisputes: async (params: ListParams<DisputeFilter>) => {
        const page = await pageOf(db.customRequest, params, { disputeStatus: params.filter.disputeStatus ?? { not: null }, ...matching(params.filter, ["creatorPageId", "fanUserId"]) }, { include: withPage });
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
          const moved = await tx.customRequest.updateMany({ where: { id, disputeStatus: "open" }, data: { disputeStatus: to, disputeNote: note, disputeResolvedById: staffId, disputeResolvedAt: new Date() } });
          if (!moved.count) throw HttpError.conflict(M.disputeClosed);
          let shortfall = 0;
          if (outcome === "refund") {
            const reference = `custom_request:${id}`;
            await credits.refund({ userId: r.fanUserId, amount: r.price, reason: "custom_request_dispute_refund", idempotencyKey: `custom-request:${id}:dispute-refund`, reference }, tx);
            const taken = await credits.chargeUpTo({ userId: r.creatorPage.userId, amount: r.price, reason: EARNING_REASON.clawback, idempotencyKey: `custom-request:${id}:clawback`, reference }, tx);
            shortfall = r.price - taken;
            if (shortfall) await tx.customRequest.update({ where: { id }, data: { disputeShortfall: shortfall } });
          }
          await audit.record(tx, { staffId, action: `dispute_${outcome}`, resource: "CustomRequest", resourceId: id, before: { disputeStatus: "open" }, after: { disputeStatus: to, price: r.price, shortfall }, reason: note });
        });
        return getDispute(id);
      },
    },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
