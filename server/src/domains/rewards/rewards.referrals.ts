import crypto from "node:crypto";
import { REFERRAL_CODE, REFERRAL_REFUSALS, REWARD_REASONS, type ReferralRefusal, type RewardSettings } from "../../contract/rewards.ts";
import type { Db, Tx } from "../../db/client.ts";
import type { Order, Referral } from "../../db/generated/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { AuditService } from "../audit/audit.service.ts";
import type { CreditsService } from "../credits/credits.service.ts";
import * as q from "./rewards.queries.ts";

/** Letters and digits without the ones read alike (0/O, 1/I/l), so a code read aloud is typed right. */
const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 8;

function newCode(): string {
  return Array.from(crypto.randomBytes(CODE_LENGTH), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** The refusals referralSignals reports as flags, in the contract's order: the first one set is the refusal recorded. */
const SIGNALS = REFERRAL_REFUSALS.filter((r) => r !== "off" && r !== "cap");

/** The first of the UTC month `at` is in: the referral cap's month. */
function monthOf(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export interface ReferralDeps {
  db: Db;
  credits: CreditsService;
  audit: AuditService;
  settings: (c: Db | Tx) => Promise<RewardSettings>;
  clock: () => Date;
}

/**
 * Invitations (docs/decisions/302): an account's code, the invitation recorded when an account starts with one, and
 * the gift to both sides decided once, in the transaction that marks the invited account's first order paid.
 */
export function createReferrals(deps: ReferralDeps) {
  const { db, credits, audit, settings, clock } = deps;

  /** Why this first payment gives nothing, or null when both sides are given their credits. */
  async function refusalOf(tx: Tx, r: Referral, order: Order, s: RewardSettings): Promise<ReferralRefusal | null> {
    const flags = await q.referralSignals.first(tx, { inviterId: r.inviterId, inviteeId: r.inviteeId, orderId: order.id, payerRef: order.payerRef });
    const signal = SIGNALS.find((k) => flags?.[k as keyof typeof flags]);
    if (signal) return signal;
    if (s.referralInviterCredits <= 0 && s.referralInviteeCredits <= 0) return "off";
    if (s.referralMonthlyCap > 0 && (await q.referralGiftsSince.first(tx, { inviterId: r.inviterId, since: monthOf(clock()) }))!.n >= s.referralMonthlyCap)
      return "cap";
    return null;
  }

  async function give(tx: Tx, userId: number, amount: number, reason: string, key: string) {
    if (amount > 0) await credits.grant({ userId, amount, reason, reference: key, idempotencyKey: key }, tx);
  }

  return {
    /** The account's invitation code and what its invitations gave; the code is made the first time it is asked. */
    async link(userId: number) {
      let row = await db.referralCode.findUnique({ where: { userId } });
      while (!row) {
        // a taken code (one in a trillion) is simply tried again
        await db.referralCode.createMany({ data: [{ userId, code: newCode() }], skipDuplicates: true });
        row = await db.referralCode.findUnique({ where: { userId } });
      }
      const [invited, rewarded, s] = await Promise.all([
        db.referral.count({ where: { inviterId: userId } }),
        db.referral.count({ where: { inviterId: userId, status: "paid" } }),
        settings(db),
      ]);
      return { code: row.code, invited, rewarded, inviter_credits: s.referralInviterCredits, invitee_credits: s.referralInviteeCredits };
    },

    /** A new account started with someone's code (`?ref=`): the invitation is recorded once; an unknown code is ignored. */
    async invited(tx: Tx, inviteeId: number, code: string | undefined): Promise<void> {
      if (!code || !REFERRAL_CODE.test(code)) return;
      const owner = await tx.referralCode.findUnique({ where: { code: code.toUpperCase() }, select: { userId: true } });
      if (!owner || owner.userId === inviteeId) return;
      await tx.referral.createMany({ data: [{ inviterId: owner.userId, inviteeId }], skipDuplicates: true });
    },

    /**
     * An order was marked paid (orders' onPaid, in its transaction): the invited account's first payment decides its
     * invitation once — both given credits, or refused with the reason recorded for staff and nothing said to the
     * person. The inviter's code row is locked first, so its month's cap holds under payments at once; the pending
     * status is the exactly-once gate and the ledger keys (one per invited account and side) the last one.
     */
    async firstPaid(tx: Tx, order: Order): Promise<void> {
      const r = await tx.referral.findUnique({ where: { inviteeId: order.userId } });
      if (r?.status !== "pending") return;
      await q.lockInviter.rows(tx, { inviterId: r.inviterId });
      const s = await settings(tx);
      const refusal = await refusalOf(tx, r, order, s);
      const decided = { decidedAt: clock(), orderId: order.id };
      const data = refusal
        ? { ...decided, status: "refused" as const, refusal }
        : { ...decided, status: "paid" as const, inviterCredits: s.referralInviterCredits, inviteeCredits: s.referralInviteeCredits };
      const claimed = await tx.referral.updateMany({ where: { id: r.id, status: "pending" }, data });
      if (claimed.count === 0 || refusal) return;
      await give(tx, r.inviterId, s.referralInviterCredits, REWARD_REASONS.referralInviter, `referral:${r.inviteeId}:inviter`);
      await give(tx, r.inviteeId, s.referralInviteeCredits, REWARD_REASONS.referralInvitee, `referral:${r.inviteeId}:invitee`);
    },

    /**
     * Staff take back a fraudulent referral's gifts (console): as much of each side's gift as its balance still holds
     * (never below zero), through the ledger, audited in the same transaction. Once: a second try is a 409.
     */
    async reverse(staffId: number, id: number, reason: string) {
      return db.$transaction(async (tx) => {
        const claimed = await tx.referral.updateMany({
          where: { id, status: "paid" },
          data: { status: "reversed", reversedAt: clock(), reversedById: staffId },
        });
        if (claimed.count === 0) {
          if (!(await tx.referral.findUnique({ where: { id } }))) throw HttpError.notFound();
          throw HttpError.conflict("Only a rewarded referral can be reversed");
        }
        const r = await tx.referral.findUniqueOrThrow({ where: { id } });
        const takeBack = (userId: number, amount: number, side: string) =>
          amount > 0
            ? credits.chargeUpTo(
                {
                  userId,
                  amount,
                  reason: REWARD_REASONS.referralReversed,
                  reference: `referral:${id}`,
                  idempotencyKey: `referral:${r.inviteeId}:reverse:${side}`,
                  staffId,
                  note: reason,
                },
                tx,
              )
            : Promise.resolve(0);
        const taken = { inviter: await takeBack(r.inviterId, r.inviterCredits, "inviter"), invitee: await takeBack(r.inviteeId, r.inviteeCredits, "invitee") };
        await audit.record(tx, {
          staffId,
          action: "reverse_referral",
          resource: "Referral",
          resourceId: id,
          before: { status: "paid" },
          after: { status: "reversed", taken },
          reason,
        });
        return r;
      });
    },
  };
}

export type Referrals = ReturnType<typeof createReferrals>;
