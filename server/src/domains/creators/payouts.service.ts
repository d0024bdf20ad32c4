import { payoutMail, type PayoutDecision } from "./payout-mail.ts";
import { createTipReversals } from "./creator-tips.reversal.ts";
import { createDisputes } from "./payouts.disputes.ts";
import type { PayoutsDeps } from "./payouts.earnings.ts";
import { createPayoutRequests } from "./payouts.requests.ts";

/**
 * Creator earnings, payouts and requests in dispute (issue 16 items 5 and 6, docs/decisions/206). Owns
 * `creator_payouts`, the dispute columns of `custom_requests` and the reversal columns of `creator_tips`; every credit
 * moves through the ledger. Composed of payouts (payouts.requests.ts), disputes (payouts.disputes.ts) and tip
 * reversals (creator-tips.reversal.ts), all under the page's lock (payouts.earnings.ts).
 */
export function createPayoutsService({ contactOf, sendMail, ...deps }: PayoutsDeps) {
  /**
   * Tells the creator how their payout was decided, in their language. Only the call whose conditional update decided
   * it gets here (a retried or racing decision answers 409 before), so the email goes once; after the commit, so a
   * slow mail server never holds the decision's locks.
   */
  async function tellCreator(creatorUserId: number, d: PayoutDecision) {
    const to = await contactOf(creatorUserId);
    if (to) await sendMail({ to: to.email, ...payoutMail(d, to.language) });
  }

  const payouts = createPayoutRequests({ ...deps, tellCreator });
  const disputes = createDisputes(deps);
  const tips = createTipReversals(deps);
  return {
    earnings: payouts.earnings,
    request: payouts.request,
    mine: payouts.mine,
    dispute: disputes.dispute,

    /** The console's payout queue. */
    admin: {
      listPayouts: payouts.listPayouts,
      getPayout: payouts.getPayout,
      approve: payouts.approve,
      reject: payouts.reject,
      listDisputes: disputes.listDisputes,
      getDispute: disputes.getDispute,
      resolveDispute: disputes.resolveDispute,
      listTips: tips.listTips,
      getTip: tips.getTip,
      reverseTip: tips.reverseTip,
    },
  };
}

export type PayoutsService = ReturnType<typeof createPayoutsService>;
