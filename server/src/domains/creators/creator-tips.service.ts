import type { CreatorTip } from "../../db/generated/client.ts";
import type { Db, Tx } from "../../db/client.ts";
import { EARNING_REASON } from "../../contract/creator-payouts.ts";
import { TIP_LEDGER_REASON, TIP_MESSAGES as M, type TipSettings, type TipStatus } from "../../contract/tips.ts";
import { HttpError } from "../../http/errors.ts";
import { MSG } from "../../http/messages.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import { livePage } from "./creators.pages.ts";
import { holdLivePage } from "./creators.page-hold.ts";
import { insertTip } from "./creators.queries.ts";
import type { RecordNotification } from "../notifications/notifications.service.ts";
import type { Side } from "../../contract/sides.ts";

export interface TipDeps {
  db: Db;
  /** the ledger: a tip is charged from the fan and granted to the creator as an earning, in one transaction */
  credits: Pick<CreditsService, "charge" | "grant">;
  /** chat's text check (the rule set, then the moderation endpoint when one is set): the rule a message breaks, or null */
  checkText(text: string): Promise<string | null>;
  /** site owns settings: the presets and limits staff set (TIP_DEFAULTS until they do) */
  tipSettings(): Promise<TipSettings>;
  /** tells the creator of the tip, in the tip's transaction (docs/decisions/312) */
  notify: RecordNotification;
}

export interface TipAsked {
  homeLink: string;
  amount: number;
  message?: string;
  libraryItemId?: number;
  /** one per tap: a double click or a retried request is one tip */
  idempotencyKey: string;
}

const withPage = { creatorPage: { select: { homeLink: true, title: true } } } as const;

/** A tip as the fan and the creator see it, with the page it went to. */
function pageTipView(t: CreatorTip & { creatorPage: { homeLink: string; title: string } }) {
  return {
    id: t.id,
    amount: t.amount,
    message: t.message,
    status: t.status as TipStatus,
    library_item_id: t.libraryItemId,
    created_at: t.createdAt.toISOString(),
    home_link: t.creatorPage.homeLink,
    creator: t.creatorPage.title,
  };
}

/** The ledger keys of a tip's movements: named by the tip, so each moves once however often it is asked for. */
export const tipKey = (id: number, movement: "charge" | "earn" | "reverse-refund" | "clawback") => `creator-tip:${id}:${movement}`;

/**
 * The fan's charge and the creator's earning, in the order of the accounts' ids: every transaction moving credits
 * between two accounts locks their rows lowest id first, so two fans tipping each other at once queue instead of
 * deadlocking. A short balance throws 402 and the caller's transaction leaves nothing behind.
 */
async function moveTip(credits: TipDeps["credits"], tx: Tx, tip: { id: number; amount: number; fanId: number; creatorId: number }) {
  const reference = `creator_tip:${tip.id}`;
  const charge = () =>
    credits.charge({ userId: tip.fanId, amount: tip.amount, reason: TIP_LEDGER_REASON.sent, idempotencyKey: tipKey(tip.id, "charge"), reference }, tx);
  const earn = () =>
    credits.grant({ userId: tip.creatorId, amount: tip.amount, reason: EARNING_REASON.tip, idempotencyKey: tipKey(tip.id, "earn"), reference }, tx);
  if (tip.fanId < tip.creatorId) {
    await charge();
    await earn();
  } else {
    await earn();
    await charge();
  }
}

/** Tips (issue 32 item 5, docs/decisions/304): a fan's credits to a creator, with a message, counted as the creator's earnings. */
export function createCreatorTips({ db, credits, checkText, tipSettings, notify }: TipDeps) {
  /** Refuses an amount outside staff's limits and a message the text check refuses, before anything is held. */
  async function checkTip(amount: number, message: string | undefined): Promise<void> {
    const s = await tipSettings();
    if (amount < s.min || amount > s.max) throw HttpError.badRequest(M.amountRange.replace("{{min}}", String(s.min)).replace("{{max}}", String(s.max)));
    if (message && (await checkText(message))) throw HttpError.badRequest(MSG.chatRefused);
  }

  return {
    settings: tipSettings,

    /**
     * A fan tips a page that is up. The tip row (claiming the fan's key), the fan's charge and the creator's earning
     * commit together: a short balance, a ban of either side that committed first, or a page taken down leaves nothing.
     * A ban that comes later waits on the rows this holds, then finds the tip whole.
     */
    async tip(fanId: number, t: TipAsked) {
      const page = await livePage(db, t.homeLink);
      if (page.userId === fanId) throw HttpError.badRequest(M.ownPage);
      await checkTip(t.amount, t.message);
      if (t.libraryItemId !== undefined) {
        const onPage = await db.creatorLibraryItem.count({ where: { id: t.libraryItemId, creatorPageId: page.id } });
        if (!onPage) throw HttpError.badRequest(M.itemNotOnPage);
      }
      const row = await db.$transaction(async (tx) => {
        await holdLivePage(tx, page.id);
        const created = await insertTip.first(tx, {
          pageId: page.id,
          fanId,
          libraryItemId: t.libraryItemId ?? null,
          amount: t.amount,
          message: t.message || null,
          idempotencyKey: t.idempotencyKey,
        });
        // a retry: the first tip as it was made (its own page, should the key have been reused for another)
        if (!created)
          return tx.creatorTip.findUniqueOrThrow({
            where: { fanUserId_idempotencyKey: { fanUserId: fanId, idempotencyKey: t.idempotencyKey } },
            include: withPage,
          });
        await moveTip(credits, tx, { id: created.id, amount: t.amount, fanId, creatorId: page.userId });
        // the fan's row is locked now (the charge): a ban that committed before it is seen by this fresh statement
        if (!(await tx.user.count({ where: { id: fanId, bannedAt: null } }))) throw HttpError.forbidden(M.fanBanned);
        await notify(tx, { userId: page.userId, kind: "tip", subjectId: page.id, actorId: fanId, amount: t.amount });
        return tx.creatorTip.findUniqueOrThrow({ where: { id: created.id }, include: withPage });
      });
      return pageTipView(row);
    },

    /** The fan's tips, or the tips to the creator's own page, newest first: never anyone else's. */
    async tips(userId: number, as: Side) {
      const where = as === "fan" ? { fanUserId: userId } : { creatorPage: { userId } };
      const rows = await db.creatorTip.findMany({ where, orderBy: { id: "desc" }, take: 100, include: withPage });
      return { list: rows.map(pageTipView) };
    },
  };
}

export type CreatorTips = ReturnType<typeof createCreatorTips>;
