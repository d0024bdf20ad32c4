import type { ApiRouter } from "../../http/api.ts";
import { disputeBody, disputeRequestAnswer, earningsAnswer, payoutBody, payoutsAnswer, requestPayoutAnswer } from "./payouts.schema.ts";
import type { PayoutsService } from "./payouts.service.ts";

/** The creator's earnings and payouts, and the fan's dispute of a delivery (issue 16, docs/decisions/206). */
export function payoutsRoutes(api: ApiRouter, payouts: PayoutsService) {
  const tags = ["creators"];
  api.get(
    "/api/Subscribe/earnings",
    {
      summary: "The caller's creator earnings: earned, in escrow, in dispute, paid out, payable now (credits)",
      tags,
      auth: "user",
      can: ["read", "CreatorPayout"],
      response: earningsAnswer,
    },
    ({ principal }) => payouts.earnings(principal.userId),
  );
  api.get(
    "/api/Subscribe/payouts",
    { summary: "The caller's payout requests, newest first", tags, auth: "user", can: ["read", "CreatorPayout"], response: payoutsAnswer },
    ({ principal }) => payouts.mine(principal.userId),
  );
  api.post(
    "/api/Subscribe/requestPayout",
    {
      summary: "Ask for a payout of credits (at least the minimum, at most what is payable); they leave the balance until staff decide",
      tags,
      auth: "user",
      can: ["create", "CreatorPayout"],
      body: payoutBody,
      response: requestPayoutAnswer,
    },
    ({ principal, body }) => payouts.request(principal.userId, body.amount, body.idempotency_key),
  );
  api.post(
    "/api/Subscribe/disputeRequest",
    {
      summary: "The fan disputes a delivery they rated not satisfied; staff refund or uphold it",
      tags,
      auth: "user",
      can: ["create", "Subscription"],
      body: disputeBody,
      response: disputeRequestAnswer,
    },
    ({ principal, body }) => payouts.dispute(principal.userId, body.id, body.reason),
  );
}
